import { findByIdOrName, newId, unique, type Static } from '@platform/core';
import { jsonb, sql, type Updateable } from '@platform/db';
import type { New, PaletteDb, PatternRow, PatternsTable, Step } from '../database.js';
import type { NamedListQuery } from '../schemas/common.js';
import type { ComponentRef } from '../schemas/components.js';
import { hasTag, inTransactionIf, linksByRecord } from './records.js';

/** A pattern with the ids of its components, in the order linked. */
export type PatternWithComponents = PatternRow & { components: string[] };

/** The ids of the components of each pattern. */
const componentIdsOf = (db: PaletteDb, ids: readonly string[]) =>
  linksByRecord(ids, (wanted) =>
    db
      .selectFrom('pattern_components')
      .select(['pattern_id as from', 'component_id as to'])
      .where('pattern_id', 'in', wanted)
      .orderBy('seq')
      .execute(),
  );

/** The patterns with their components, in one more query. */
export async function withComponents(
  db: PaletteDb,
  rows: PatternRow[],
): Promise<PatternWithComponents[]> {
  const linked = await componentIdsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, components: linked.get(row.id) ?? [] }));
}

/** A page of patterns by name, filtered, with their components: two queries. */
export async function listPatterns(db: PaletteDb, filter: Static<typeof NamedListQuery>) {
  let query = db.selectFrom('patterns').selectAll();
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.tag !== undefined) query = query.where(hasTag(filter.tag));
  const rows = await query
    .orderBy(sql`lower(name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return withComponents(db, rows);
}

/** The pattern with that id, else that name in any case; NOT_FOUND `Pattern not found: x`. */
export const findPattern = (db: PaletteDb, idOrName: string) =>
  findByIdOrName(db, 'patterns', idOrName, 'Pattern');

/** Replaces the components of a pattern by these, in their order (in the caller's transaction). */
async function replaceComponents(db: PaletteDb, id: string, componentIds: readonly string[]) {
  await db.deleteFrom('pattern_components').where('pattern_id', '=', id).execute();
  if (componentIds.length > 0)
    await db
      .insertInto('pattern_components')
      .values(componentIds.map((component_id) => ({ pattern_id: id, component_id })))
      .execute();
}

/** Inserts a pattern with a new id, and its components when given. */
export const insertPattern = (
  db: PaletteDb,
  pattern: New<PatternsTable>,
  componentIds?: readonly string[],
) =>
  inTransactionIf(db, componentIds !== undefined, async (trx) => {
    const row = await trx
      .insertInto('patterns')
      .values({
        ...pattern,
        id: newId(),
        tags: jsonb(pattern.tags),
        steps: jsonb(pattern.steps),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (componentIds) await replaceComponents(trx, row.id, componentIds);
    return row;
  });

/** Changes the columns given (and `updated`); the components, when given, replace its own. */
export const updatePattern = (
  db: PaletteDb,
  id: string,
  changes: Updateable<PatternsTable>,
  componentIds?: readonly string[],
) =>
  inTransactionIf(db, componentIds !== undefined, async (trx) => {
    const row = await trx
      .updateTable('patterns')
      .set({ ...changes, tags: changes.tags && jsonb(changes.tags), updated: sql`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (componentIds) await replaceComponents(trx, id, componentIds);
    return row;
  });

/** Deletes a pattern (its links go with it). */
export async function deletePattern(db: PaletteDb, id: string) {
  await db.deleteFrom('patterns').where('id', '=', id).execute();
}

/** Appends a step in one statement, so that concurrent appends all keep their place. */
export function appendStep(db: PaletteDb, id: string, step: Step): Promise<PatternRow> {
  return db
    .updateTable('patterns')
    .set({ steps: sql<Step[]>`steps || ${jsonb([step])}::jsonb`, updated: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A pattern's components, then those only its steps use. */
export async function patternComponents(db: PaletteDb, pattern: PatternRow) {
  const linked: ComponentRef[] = await db
    .selectFrom('pattern_components as l')
    .innerJoin('components as c', 'c.id', 'l.component_id')
    .select(['c.id', 'c.name', 'c.status'])
    .where('l.pattern_id', '=', pattern.id)
    .orderBy('l.seq')
    .execute();
  const linkedIds = new Set(linked.map((c) => c.id));
  const stepIds = unique(pattern.steps.flatMap((s) => (s.component ? [s.component] : [])));
  const fromSteps = stepIds.filter((id) => !linkedIds.has(id));
  if (fromSteps.length === 0) return linked;
  const refs = await db
    .selectFrom('components')
    .select(['id', 'name', 'status'])
    .where('id', 'in', fromSteps)
    .execute();
  return [...linked, ...refs];
}
