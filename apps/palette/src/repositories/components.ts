import { findByIdOrName, newId, type Static } from '@platform/core';
import { jsonb, sql, type Updateable } from '@platform/db';
import type { ComponentRow, ComponentsTable, New, PaletteDb } from '../database.js';
import type { ComponentListQuery } from '../schemas/components.js';
import { hasTag, inTransactionIf, linksByRecord } from './records.js';

/** A component with the ids of the tokens it uses, in the order linked. */
export type ComponentWithTokens = ComponentRow & { tokens: string[] };

/** The ids of the tokens each component uses. */
const tokenIdsOf = (db: PaletteDb, ids: readonly string[]) =>
  linksByRecord(ids, (wanted) =>
    db
      .selectFrom('component_tokens')
      .select(['component_id as from', 'token_id as to'])
      .where('component_id', 'in', wanted)
      .orderBy('seq')
      .execute(),
  );

/** The components with the tokens they use, in one more query. */
export async function withTokens(
  db: PaletteDb,
  rows: ComponentRow[],
): Promise<ComponentWithTokens[]> {
  const linked = await tokenIdsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, tokens: linked.get(row.id) ?? [] }));
}

/** A page of components by name, filtered, with their tokens: two queries. */
export async function listComponents(db: PaletteDb, filter: Static<typeof ComponentListQuery>) {
  let query = db.selectFrom('components').selectAll();
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.tag !== undefined) query = query.where(hasTag(filter.tag));
  const rows = await query
    .orderBy(sql`lower(name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return withTokens(db, rows);
}

/** The component with that id, else that name in any case; NOT_FOUND `Component not found: x`. */
export const findComponent = (db: PaletteDb, idOrName: string) =>
  findByIdOrName(db, 'components', idOrName, 'Component');

/** Replaces the tokens a component uses by these, in their order (in the caller's transaction). */
async function replaceTokens(db: PaletteDb, id: string, tokenIds: readonly string[]) {
  await db.deleteFrom('component_tokens').where('component_id', '=', id).execute();
  if (tokenIds.length > 0)
    await db
      .insertInto('component_tokens')
      .values(tokenIds.map((token_id) => ({ component_id: id, token_id })))
      .execute();
}

/** Inserts a component with a new id, and the tokens it uses when given. */
export const insertComponent = (
  db: PaletteDb,
  component: New<ComponentsTable>,
  tokenIds?: readonly string[],
) =>
  inTransactionIf(db, tokenIds !== undefined, async (trx) => {
    const row = await trx
      .insertInto('components')
      .values({
        ...component,
        id: newId(),
        tags: jsonb(component.tags),
        props: jsonb(component.props),
        variants: jsonb(component.variants),
        examples: jsonb(component.examples),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (tokenIds) await replaceTokens(trx, row.id, tokenIds);
    return row;
  });

/** Changes the columns given (and `updated`); the tokens, when given, replace those it uses. */
export const updateComponent = (
  db: PaletteDb,
  id: string,
  changes: Updateable<ComponentsTable>,
  tokenIds?: readonly string[],
) =>
  inTransactionIf(db, tokenIds !== undefined, async (trx) => {
    const row = await trx
      .updateTable('components')
      .set({
        ...changes,
        tags: changes.tags && jsonb(changes.tags),
        props: changes.props && jsonb(changes.props),
        variants: changes.variants && jsonb(changes.variants),
        updated: sql`now()`,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (tokenIds) await replaceTokens(trx, id, tokenIds);
    return row;
  });

/** Deletes a component (its links go with it). */
export async function deleteComponent(db: PaletteDb, id: string) {
  await db.deleteFrom('components').where('id', '=', id).execute();
}

/**
 * Appends an item to a jsonb list unless one of that name (in any case) is there, in one statement
 * so that concurrent adds cannot both win. Undefined when the name is taken.
 */
export function appendItem(
  db: PaletteDb,
  id: string,
  column: 'props' | 'variants' | 'examples',
  item: { name: string },
): Promise<ComponentRow | undefined> {
  return db
    .updateTable('components')
    .set(column, sql`${sql.ref(column)} || ${jsonb([item])}::jsonb`)
    .set('updated', sql`now()`)
    .where('id', '=', id)
    .where(
      sql<boolean>`not exists (select 1 from jsonb_array_elements(${sql.ref(column)}) as e(item) where lower(e.item->>'name') = ${item.name.toLowerCase()})`,
    )
    .returningAll()
    .executeTakeFirst();
}

/** The token records a component uses, the patterns that contain it, the rules that apply to it. */
export async function componentRelations(db: PaletteDb, id: string) {
  const tokens = await db
    .selectFrom('component_tokens as ct')
    .innerJoin('tokens as t', 't.id', 'ct.token_id')
    .selectAll('t')
    .where('ct.component_id', '=', id)
    .orderBy('ct.seq')
    .execute();
  const patterns = await db
    .selectFrom('pattern_components as pc')
    .innerJoin('patterns as p', 'p.id', 'pc.pattern_id')
    .select(['p.id', 'p.name'])
    .where('pc.component_id', '=', id)
    .orderBy(sql`lower(p.name)`)
    .execute();
  const rules = await db
    .selectFrom('rule_components as rc')
    .innerJoin('rules as r', 'r.id', 'rc.rule_id')
    .select(['r.id', 'r.name', 'r.severity', 'r.wcag', 'r.level'])
    .where('rc.component_id', '=', id)
    .orderBy(sql`lower(r.name)`)
    .execute();
  return { tokens, patterns, rules };
}
