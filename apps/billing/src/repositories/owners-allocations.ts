import type { Insertable, Selectable, Updateable } from '@platform/db';
import { jsonb, sql } from '@platform/db';
import type { AllocationRulesTable, BillingDb, Page } from '../database.js';

export type AllocationRow = Selectable<AllocationRulesTable>;
export type NewAllocation = Omit<Insertable<AllocationRulesTable>, 'created_at' | 'updated_at'>;
export type AllocationChanges = Omit<
  Updateable<AllocationRulesTable>,
  'id' | 'created_at' | 'updated_at' | 'created_by'
>;

/** jsonb columns as the driver takes them. */
const jsonColumns = <T extends { selector?: unknown; shares?: unknown; basis?: unknown }>(
  row: T,
) => ({
  ...row,
  selector: row.selector === undefined ? undefined : jsonb(row.selector),
  shares: row.shares === undefined ? undefined : jsonb(row.shares),
  basis: row.basis == null ? row.basis : jsonb(row.basis),
});

/** A page of allocation rules in the order they apply; those naming a catalog service id. */
export function listAllocations(db: BillingDb, filter: { service?: string[] }, page: Page) {
  let query = db.selectFrom('allocation_rules').selectAll();
  const ids = filter.service;
  if (ids !== undefined)
    query = query.where(
      sql<boolean>`(selector->>'catalogService' = any(${ids}::text[])
        or exists (select 1 from jsonb_array_elements(shares) as s
                   where s->>'service' = any(${ids}::text[])))`,
    );
  return query.orderBy('priority').orderBy('id').limit(page.limit).offset(page.offset).execute();
}

/** The rule with this id, else with this name (any case). */
export function findAllocation(db: BillingDb, idOrName: string) {
  return db
    .selectFrom('allocation_rules')
    .selectAll()
    .where((eb) =>
      eb.or([eb('id', '=', idOrName), eb(sql`lower(name)`, '=', idOrName.toLowerCase())]),
    )
    .orderBy(sql`id = ${idOrName}`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function insertAllocation(db: BillingDb, rule: NewAllocation) {
  return db
    .insertInto('allocation_rules')
    .values(jsonColumns(rule) as NewAllocation)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateAllocation(db: BillingDb, id: string, changes: AllocationChanges) {
  return db
    .updateTable('allocation_rules')
    .set({ ...(jsonColumns(changes) as AllocationChanges), updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function deleteAllocation(db: BillingDb, id: string) {
  return db.deleteFrom('allocation_rules').where('id', '=', id).returningAll().executeTakeFirst();
}
