import { sql, type RawBuilder } from '@platform/db';
import type { BillingDb, ItemRow, OwnerRulesTable } from '../database.js';

/**
 * Serialises resolution: taken first in every transaction that writes owner rules or the catalog
 * snapshot, or writes items and resolves them (held to its end). Under READ COMMITTED a statement
 * does not see another transaction's uncommitted rule or item: without it, two rule changes at
 * once would each resolve by a set of rules missing the other's, and an item written meanwhile
 * would be resolved by neither. resolveItems takes it too (again, at no cost, when held already).
 */
export async function lockResolution(db: BillingDb) {
  await sql`select pg_advisory_xact_lock(hashtext('billing.resolve'))`.execute(db);
}

/**
 * Which items to resolve: some by id, a provider's by their references, those dated in a window
 * (inclusive), or those meeting a condition on items `i` (ruleScope, servicesScope).
 */
export type ResolveScope =
  | { ids: string[] }
  | { provider: string; refs: string[] }
  | { from: Date; to: Date }
  | { where: RawBuilder<boolean> };

/**
 * FOCUS columns that an imported item keeps in a column of its own rather than in its dimensions
 * (domain/adapters/focus-row.ts): what a rule on one of them compares.
 */
const FOCUS_COLUMNS: Record<string, string> = {
  ServiceName: 'service',
  ServiceCategory: 'category',
  ProviderName: 'provider',
  ChargeDescription: 'description',
  BillingCurrency: 'currency',
};

/** The conditions of an owner rule as SQL: columns of `r` (every rule), or one rule's values. */
type Conditions = Record<
  'provider' | 'service' | 'focus_column' | 'focus_value' | 'tag_key' | 'tag_value',
  RawBuilder<unknown>
>;
export type RuleConditions = Pick<
  OwnerRulesTable,
  'provider' | 'service' | 'focus_column' | 'focus_value' | 'tag_key' | 'tag_value'
>;

/** The value of the FOCUS column `column` for item `i` (null when it has none). */
const focusValue = (column: RawBuilder<unknown>) =>
  sql`coalesce(i.dimensions->>${column}, case ${column} ${sql.join(
    Object.entries(FOCUS_COLUMNS).map(([f, c]) => sql`when ${f} then i.${sql.raw(c)}`),
    sql` `,
  )} end)`;

/**
 * Whether item `i` has the tag `key` (with `value`, unless null): a key of its FOCUS Tags object,
 * or an item tag `key:value` or `key=value` (the key alone when no value); any case.
 */
const hasTag = (key: RawBuilder<unknown>, value: RawBuilder<unknown>) => sql`(
  exists (
    select 1 from jsonb_each_text(case when jsonb_typeof(i.dimensions->'Tags') = 'object'
                                       then i.dimensions->'Tags' else '{}'::jsonb end) as ft(k, v)
    where lower(ft.k) = lower(${key}) and (${value} is null or lower(ft.v) = lower(${value})))
  or exists (
    select 1 from jsonb_array_elements_text(i.tags) as t(v)
    where (${value} is null and lower(t.v) = lower(${key}))
       or (lower(left(t.v, length(${key}))) = lower(${key})
           and substr(t.v, length(${key}) + 1, 1) in (':', '=')
           and (${value} is null
                or lower(substr(t.v, length(${key}) + 2)) = lower(${value})))))`;

/** Each condition of a rule, as it holds for item `i`. */
const clauses = (r: Conditions) => ({
  provider: sql<boolean>`lower(i.provider) = lower(${r.provider})`,
  service: sql<boolean>`lower(i.service) = lower(${r.service})`,
  focus_column: sql<boolean>`lower(${focusValue(r.focus_column)}) = lower(${r.focus_value})`,
  tag_key: hasTag(r.tag_key, r.tag_value),
});

/** Whether item `i` meets every condition of the owner rule `r` (correlated). */
const meetsRule = (() => {
  const columns = ['provider', 'service', 'focus_column', 'focus_value', 'tag_key', 'tag_value'];
  const r = Object.fromEntries(columns.map((c) => [c, sql.ref(`r.${c}`)])) as Conditions;
  const each = clauses(r);
  return sql<boolean>`${sql.join(
    Object.entries(each).map(([c, holds]) => sql`(${sql.ref(`r.${c}`)} is null or ${holds})`),
    sql` and `,
  )}`;
})();

/** Whether item `i` meets every condition of this rule (its values as parameters: indexable). */
export function meetsConditions(rule: RuleConditions): RawBuilder<boolean> {
  const value = (v: string | null) => sql`${v}::text`;
  const each = clauses({
    provider: value(rule.provider),
    service: value(rule.service),
    focus_column: value(rule.focus_column),
    focus_value: value(rule.focus_value),
    tag_key: value(rule.tag_key),
    tag_value: value(rule.tag_value),
  });
  const held = (Object.keys(each) as Array<keyof typeof each>).filter((c) => rule[c] !== null);
  return held.length === 0
    ? sql<boolean>`false`
    : sql<boolean>`(${sql.join(
        held.map((c) => each[c]),
        sql` and `,
      )})`;
}

/**
 * The catalog service item `i` resolves to: the target of the first owner rule it meets (by
 * priority, then id) whose target the snapshot knows; else the snapshot's service whose id
 * (exact, then any case) or name (any case) is the item's service (each lookup indexed); else
 * null (unmatched).
 */
function targetOf(db: BillingDb) {
  const byRule = db
    .selectFrom('owner_rules as r')
    .innerJoin('catalog_services as c', 'c.id', 'r.target')
    .select('r.target')
    .where(meetsRule)
    .orderBy('r.priority')
    .orderBy('r.id')
    .limit(1);
  const named = (where: RawBuilder<boolean>) =>
    db.selectFrom('catalog_services as d').select('d.id').where(where).orderBy('d.id').limit(1);
  return sql<string | null>`coalesce((${byRule}), (${named(sql`d.id = i.service`)}),
    (${named(sql`lower(d.id) = lower(i.service)`)}), (${named(sql`lower(d.name) = lower(i.service)`)}))`;
}

/** Items whose resolution changed, by the team (catalog owner) they left and the one they joined. */
export interface Move {
  from: string | null;
  to: string | null;
  items: number;
}

/**
 * Resolves the items of `scope` to catalog services as the rules and the snapshot say now,
 * setting catalog_service, catalog_system and catalog_owner (null: unmatched), under the lock
 * (lockResolution). One statement that writes only the items whose resolution changed; answers
 * how many moved from which owner to which.
 */
export async function resolveMoving(db: BillingDb, scope: ResolveScope): Promise<Move[]> {
  let resolved = db
    .selectFrom('items as i')
    .select(['i.id', 'i.catalog_owner as old_owner', targetOf(db).as('target')]);
  if ('ids' in scope) {
    if (scope.ids.length === 0) return [];
    resolved = resolved.where('i.id', 'in', scope.ids);
  } else if ('refs' in scope) {
    if (scope.refs.length === 0) return [];
    resolved = resolved
      .where('i.provider', '=', scope.provider)
      .where(sql<boolean>`i.provider_ref = any(${scope.refs}::text[])`);
  } else if ('from' in scope)
    resolved = resolved.where('i.date', '>=', scope.from).where('i.date', '<=', scope.to);
  else resolved = resolved.where(scope.where);
  await lockResolution(db);
  const items = sql.table('billing.items');
  const services = sql.table('billing.catalog_services');
  const { rows } = await sql<Move>`
    with r as (${resolved}),
    changed as (
      update ${items} as m
      set catalog_service = s.id, catalog_system = s.system, catalog_owner = s.owner
      from r left join ${services} as s on s.id = r.target
      where m.id = r.id
        and (m.catalog_service, m.catalog_system, m.catalog_owner)
            is distinct from (s.id, s.system, s.owner)
      returning r.old_owner, m.catalog_owner as new_owner)
    select old_owner as "from", new_owner as "to", count(*)::int as items
    from changed group by 1, 2`.execute(db);
  return rows;
}

/** resolveMoving, answering how many items changed. */
export async function resolveItems(db: BillingDb, scope: ResolveScope): Promise<number> {
  return (await resolveMoving(db, scope)).reduce((n, move) => n + move.items, 0);
}

/**
 * Writes items and resolves them in one transaction holding the lock (taken first): what item
 * creates and updates do. Answers the item as resolved (undefined: `write` found none).
 */
export function writeResolved<Row extends ItemRow | undefined>(
  db: BillingDb,
  write: (trx: BillingDb) => Promise<Row>,
): Promise<Row> {
  return db.transaction().execute(async (trx) => {
    await lockResolution(trx);
    const row = await write(trx);
    if (!row || !(await resolveItems(trx, { ids: [row.id] }))) return row;
    const resolved = trx.selectFrom('items').selectAll().where('id', '=', row.id);
    return (await resolved.executeTakeFirstOrThrow()) as Row;
  });
}

/**
 * The items an owner rule's change can move (a rule made: `before` undefined; removed: `after`
 * undefined): those meeting its old or new conditions, and those resolved to its old target.
 */
export function ruleScope(
  before: (RuleConditions & { target: string }) | undefined,
  after: RuleConditions | undefined,
): ResolveScope {
  const parts: RawBuilder<boolean>[] = [];
  if (before)
    parts.push(meetsConditions(before), sql<boolean>`i.catalog_service = ${before.target}`);
  if (after) parts.push(meetsConditions(after));
  return { where: sql<boolean>`(${sql.join(parts, sql` or `)})` };
}

/**
 * The items a change of these catalog services can move: those resolved to one, those whose
 * service is one's id or name (old or new, any case), those meeting a rule that targets one.
 */
export async function servicesScope(
  db: BillingDb,
  changed: { ids: string[]; keys: string[] },
): Promise<ResolveScope | undefined> {
  if (changed.ids.length === 0) return undefined;
  const rules = await db
    .selectFrom('owner_rules')
    .selectAll()
    .where('target', 'in', changed.ids)
    .execute();
  const parts = [
    sql<boolean>`i.catalog_service = any(${changed.ids}::text[])`,
    sql<boolean>`lower(i.service) in (select lower(k) from unnest(${changed.keys}::text[]) as k)`,
    ...rules.map(meetsConditions),
  ];
  return { where: sql<boolean>`(${sql.join(parts, sql` or `)})` };
}
