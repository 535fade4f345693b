import { jsonb, sql, type RawBuilder } from '@platform/db';
import type { BillingDb, SpendSelector } from '../database.js';
import type { filteredItems } from './items.js';

/** The spend budgets, forecasts and anomalies count (always through spendTotal / dailySpend). */
export interface SpendFilter {
  from: Date; // inclusive
  to: Date; // exclusive
  owner?: string; // a catalog owner's name (any case)
  service?: string; // a catalog service id or name (any case)
  provider?: string; // any case
  tag?: string;
  /** Only items in this currency (an ISO 4217 code): amounts of two currencies never add up. */
  currency: string;
}

/** Items, filtered on their own columns (before allocation). */
type ItemQuery = ReturnType<typeof filteredItems>;

/** An allocation rule as spend reads it. */
export interface Allocation {
  id: string;
  method: 'fixed' | 'proportional';
  selector: SpendSelector;
  shares: Array<{ service: string; percent: number }>;
  basis: SpendSelector | null;
}

/** The allocation rules in the order they apply: priority, then id. */
export function loadAllocations(db: BillingDb): Promise<Allocation[]> {
  return db
    .selectFrom('allocation_rules')
    .select(['id', 'method', 'selector', 'shares', 'basis'])
    .orderBy('priority')
    .orderBy('id')
    .execute();
}

/** An item's exact amount in cents, as reports count it. */
const EXACT = sql<string>`coalesce(exact_amount, amount::numeric)`;

/** Whether an item (columns of items, unqualified) matches a selector: every field given. */
export function selects(selector: SpendSelector): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [];
  if (selector.catalogService !== undefined)
    parts.push(sql`catalog_service = ${selector.catalogService}`);
  if (selector.provider !== undefined)
    parts.push(sql`lower(provider) = lower(${selector.provider})`);
  if (selector.service !== undefined) parts.push(sql`lower(service) = lower(${selector.service})`);
  if (selector.tag !== undefined) parts.push(sql`tags @> ${jsonb([selector.tag])}`);
  return parts.length === 0 ? sql<boolean>`false` : sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

const MONTH = sql`date_trunc('month', date at time zone 'UTC')`;

/**
 * The spend of a proportional rule's basis per UTC month, currency and catalog service (positive
 * sums only), with the month's total: the proportions its shared items are split by. The items
 * the rule shares (its selector's) are no part of it, even where the basis selects them too.
 */
function weights(db: BillingDb, rule: Allocation, window: { from?: Date; to?: Date }) {
  let query = db
    .selectFrom('items')
    .select([
      MONTH.as('month'),
      'currency',
      'catalog_service as service',
      sql<string>`max(catalog_system)`.as('system'),
      sql<string>`max(catalog_owner)`.as('owner'),
      sql<string>`sum(${EXACT})`.as('weight'),
    ])
    .where(selects(rule.basis ?? {}))
    .where(sql<boolean>`(${selects(rule.selector)}) is not true`)
    .where('catalog_service', 'is not', null);
  if (window.from)
    query = query.where(
      sql<boolean>`date >= date_trunc('month', ${window.from}::timestamptz at time zone 'UTC') at time zone 'UTC'`,
    );
  if (window.to)
    query = query.where(
      sql<boolean>`date < (date_trunc('month', ${window.to}::timestamptz at time zone 'UTC') + interval '1 month') at time zone 'UTC'`,
    );
  const sums = query.groupBy([sql`1`, sql`2`, sql`3`]).having(sql<boolean>`sum(${EXACT}) > 0`);
  return sql`select *, sum(weight) over (partition by month, currency) as total from (${sums}) as s`;
}

/** The columns of items a spend row keeps (what reports filter and break down by). */
const KEPT = [
  'id',
  'date',
  'provider',
  'currency',
  'category',
  'service',
  'recurring',
  'tags',
  'dimensions',
] as const;
const COLUMNS = sql.raw(KEPT.join(', '));
const P_COLUMNS = sql.raw(KEPT.map((c) => `p.${c}`).join(', '));

/**
 * The spend rows of the items of `items` with the allocation rules applied: an item no rule
 * selects is one row as it is; an item the first rule (by priority) selects becomes one row per
 * share, each with the share's catalog service (its system and owner) and the item's other
 * columns, the shares adding up to the item's exact amount exactly. Columns: KEPT,
 * catalog_service, catalog_system, catalog_owner, exact. `window`: the range of the
 * items (what months a proportional rule's basis is read for).
 */
export function spendRows(
  db: BillingDb,
  items: ItemQuery,
  rules: Allocation[],
  window: { from?: Date; to?: Date },
): RawBuilder<unknown> {
  const ruleNo = rules.length
    ? sql`case ${sql.join(
        rules.map((r, i) => sql`when ${selects(r.selector)} then ${sql.lit(i + 1)}`),
        sql` `,
      )} else 0 end`
    : sql`0`;
  const base = items.select([
    ...KEPT,
    'catalog_service',
    'catalog_system',
    'catalog_owner',
    EXACT.as('exact'),
    ruleNo.as('rule_no'),
  ]);
  const snapshot = db.selectFrom('catalog_services').select(['id', 'system', 'owner']);
  const parts = [
    sql`select ${COLUMNS}, catalog_service, catalog_system, catalog_owner, exact from base where rule_no = 0`,
  ];
  rules.forEach((rule, i) => {
    const no = sql.lit(i + 1);
    // The last share is the rest (the item's amount less the others): exactly the item's in all.
    if (rule.method === 'fixed')
      parts.push(sql`select ${P_COLUMNS}, p.s_service, cs.system, cs.owner,
          case when n = ${sql.lit(rule.shares.length)} then exact - (parts - part) else part end
        from (
          select b.*, share.value->>'service' as s_service, share.n,
            b.exact * (share.value->>'percent')::numeric / 100 as part,
            sum(b.exact * (share.value->>'percent')::numeric / 100) over (partition by b.id) as parts
          from base as b
          cross join jsonb_array_elements(${jsonb(rule.shares)}::jsonb) with ordinality as share(value, n)
          where b.rule_no = ${no}
        ) as p
        left join (${snapshot}) as cs on cs.id = p.s_service`);
    else
      parts.push(sql`select ${COLUMNS},
          case when w_service is null then catalog_service else w_service end,
          case when w_service is null then catalog_system else w_system end,
          case when w_service is null then catalog_owner else w_owner end,
          case when w_service is null then exact when rn = 1 then exact - parts + part else part end
        from (
          select b.*, w.service as w_service, w.system as w_system, w.owner as w_owner,
            round(b.exact * w.weight / w.total, 12) as part,
            row_number() over (partition by b.id order by w.weight desc, w.service) as rn,
            sum(round(b.exact * w.weight / w.total, 12)) over (partition by b.id) as parts
          from base as b
          left join (${weights(db, rule, window)}) as w
            on w.month = date_trunc('month', b.date at time zone 'UTC') and w.currency = b.currency
          where b.rule_no = ${no}
        ) as p`);
  });
  return sql`(with base as (${base}) ${sql.join(parts, sql` union all `)})`;
}

/** Lower-case ids of the catalog services `ref` names (its id or name, any case), `ref` too. */
export async function catalogServiceKeys(db: BillingDb, ref: string): Promise<string[]> {
  const rows = await db
    .selectFrom('catalog_services')
    .select('id')
    .where(sql<boolean>`lower(id) = lower(${ref}) or lower(name) = lower(${ref})`)
    .execute();
  return [...new Set([ref, ...rows.map((r) => r.id)].map((id) => id.toLowerCase()))];
}

/** Lower-case ids of the systems `ref` names (its id or name, any case), `ref` too. */
export async function catalogSystemKeys(db: BillingDb, ref: string): Promise<string[]> {
  const rows = await db
    .selectFrom('catalog_services')
    .select('system')
    .where(sql<boolean>`lower(system) = lower(${ref}) or lower(system_name) = lower(${ref})`)
    .execute();
  const ids = rows.flatMap((r) => (r.system ? [r.system] : []));
  return [...new Set([ref, ...ids].map((id) => id.toLowerCase()))];
}

/** Conditions on spend rows by catalog service, system and owner (ids or names, any case). */
export async function catalogConditions(
  db: BillingDb,
  filter: { service?: string; system?: string; owner?: string },
): Promise<RawBuilder<boolean>> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  const among = (column: string, keys: string[]) =>
    sql`lower(${sql.ref(column)}) in (${sql.join(keys)})`;
  if (filter.service !== undefined)
    parts.push(among('catalog_service', await catalogServiceKeys(db, filter.service)));
  if (filter.system !== undefined)
    parts.push(among('catalog_system', await catalogSystemKeys(db, filter.system)));
  if (filter.owner !== undefined) parts.push(sql`lower(catalog_owner) = lower(${filter.owner})`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

/** Items of a spend filter, on their own columns. */
function spendItems(db: BillingDb, filter: SpendFilter): ItemQuery {
  let query = db.selectFrom('items').where('date', '>=', filter.from).where('date', '<', filter.to);
  if (filter.provider !== undefined)
    query = query.where(sql<boolean>`lower(provider) = lower(${filter.provider})`);
  if (filter.tag !== undefined) query = query.where(sql<boolean>`tags @> ${jsonb([filter.tag])}`);
  return query.where('currency', '=', filter.currency.toUpperCase());
}

/** The spend rows of a filter, allocations applied, and the condition on its catalog fields. */
async function filteredSpend(db: BillingDb, filter: SpendFilter) {
  const rows = spendRows(db, spendItems(db, filter), await loadAllocations(db), filter);
  return { rows, where: await catalogConditions(db, filter) };
}

/** The exact spend in cents (a decimal string, sub-cent digits kept) matching the filter, allocations applied. */
export async function spendTotal(db: BillingDb, filter: SpendFilter): Promise<string> {
  const { rows, where } = await filteredSpend(db, filter);
  const { rows: found } = await sql<{ exact: string }>`
    select coalesce(sum(exact), 0)::text as exact from ${rows} as spend where ${where}`.execute(db);
  return found[0].exact;
}

/** Exact spend per UTC day (YYYY-MM-DD) and group; key: catalog service id or provider; null: unmatched / none. */
export async function dailySpend(
  db: BillingDb,
  filter: SpendFilter,
  groupBy: 'service' | 'provider' | null,
): Promise<Array<{ day: string; key: string | null; exact: string }>> {
  const { rows, where } = await filteredSpend(db, filter);
  const key =
    groupBy === 'service'
      ? sql`catalog_service`
      : groupBy === 'provider'
        ? sql`provider`
        : sql`null::text`;
  const { rows: found } = await sql<{ day: string; key: string | null; exact: string }>`
    select to_char(date at time zone 'UTC', 'YYYY-MM-DD') as day, ${key} as key,
           sum(exact)::text as exact
    from ${rows} as spend where ${where}
    group by 1, 2 order by 1, 2`.execute(db);
  return found;
}
