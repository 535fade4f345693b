import { findByIdOrName, newId, type Static } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { New, PaletteDb, RuleRow, RulesTable } from '../database.js';
import type { ComponentRef } from '../schemas/components.js';
import type { RuleListQuery } from '../schemas/rules.js';
import { hasTag, inTransactionIf, linksByRecord } from './records.js';

/** An accessibility rule with the ids of the components it applies to, in the order linked. */
export type RuleWithComponents = RuleRow & { components: string[] };

/** The ids of the components each rule applies to. */
const componentIdsOf = (db: PaletteDb, ids: readonly string[]) =>
  linksByRecord(ids, (wanted) =>
    db
      .selectFrom('rule_components')
      .select(['rule_id as from', 'component_id as to'])
      .where('rule_id', 'in', wanted)
      .orderBy('seq')
      .execute(),
  );

/** The rules with their components, in one more query. */
export async function withComponents(
  db: PaletteDb,
  rows: RuleRow[],
): Promise<RuleWithComponents[]> {
  const linked = await componentIdsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, components: linked.get(row.id) ?? [] }));
}

/** A page of rules by name, filtered, with their components: two queries. */
export async function listRules(db: PaletteDb, filter: Static<typeof RuleListQuery>) {
  let query = db.selectFrom('rules').selectAll();
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.severity !== undefined) query = query.where('severity', '=', filter.severity);
  if (filter.tag !== undefined) query = query.where(hasTag(filter.tag));
  const rows = await query
    .orderBy(sql`lower(name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return withComponents(db, rows);
}

/** The rule with that id, else that name in any case; NOT_FOUND `Accessibility rule not found: x`. */
export const findRule = (db: PaletteDb, idOrName: string) =>
  findByIdOrName(db, 'rules', idOrName, 'Accessibility rule');

/** Inserts a rule with a new id, and the components it applies to when given. */
export const insertRule = (
  db: PaletteDb,
  rule: New<RulesTable>,
  componentIds?: readonly string[],
) =>
  inTransactionIf(db, componentIds !== undefined, async (trx) => {
    const row = await trx
      .insertInto('rules')
      .values({ ...rule, id: newId(), tags: jsonb(rule.tags) })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (componentIds && componentIds.length > 0)
      await trx
        .insertInto('rule_components')
        .values(componentIds.map((component_id) => ({ rule_id: row.id, component_id })))
        .execute();
    return row;
  });

/** Deletes a rule (its links go with it). */
export async function deleteRule(db: PaletteDb, id: string) {
  await db.deleteFrom('rules').where('id', '=', id).execute();
}

/** The components a rule applies to, in the order linked. */
export function ruleComponents(db: PaletteDb, id: string): Promise<ComponentRef[]> {
  return db
    .selectFrom('rule_components as l')
    .innerJoin('components as c', 'c.id', 'l.component_id')
    .select(['c.id', 'c.name', 'c.status'])
    .where('l.rule_id', '=', id)
    .orderBy('l.seq')
    .execute();
}
