import type { Insertable, Selectable, Updateable } from '@platform/db';
import { sql } from '@platform/db';
import type {
  BillingDb,
  CatalogServicesTable,
  CatalogSnapshotTable,
  OwnerRulesTable,
  Page,
} from '../database.js';

// Billing's copy of the catalog (services with their system and owner) and the owner rules.

export type CatalogServiceRow = Selectable<CatalogServicesTable>;
export type SnapshotRow = Selectable<CatalogSnapshotTable>;
export type OwnerRuleRow = Selectable<OwnerRulesTable>;
export type NewOwnerRule = Omit<Insertable<OwnerRulesTable>, 'created_at' | 'updated_at'>;
export type OwnerRuleChanges = Omit<
  Updateable<OwnerRulesTable>,
  'id' | 'created_at' | 'updated_at' | 'created_by'
>;

const SNAPSHOT = 'catalog';

/** When the snapshot was fetched and the last attempt's error (never fetched: all null). */
export async function snapshotState(db: BillingDb): Promise<SnapshotRow> {
  const row = await db
    .selectFrom('catalog_snapshot')
    .selectAll()
    .where('id', '=', SNAPSHOT)
    .executeTakeFirst();
  return row ?? { id: SNAPSHOT, fetched_at: null, attempted_at: null, error: null, services: 0 };
}

/** Catalog services that appeared, went or changed: their ids, and their ids and names before and after. */
export interface SnapshotChange {
  ids: string[];
  keys: string[];
}

/**
 * Replaces the snapshot by the services fetched at `at` (the fetch's start), in the caller's
 * transaction holding the resolution lock: unless the stored snapshot was fetched later (a
 * refresh that started after this one finished first), then it stays and the answer is
 * undefined. Services are upserted once each (the catalog may list one twice while it changes).
 * Answers the services that appeared, went, or changed their name, system or owner.
 */
export async function replaceSnapshot(
  trx: BillingDb,
  fetched: CatalogServiceRow[],
  at: Date,
): Promise<SnapshotChange | undefined> {
  const stored = await snapshotState(trx);
  if (stored.fetched_at && stored.fetched_at > at) return undefined;
  const services = [...new Map(fetched.map((s) => [s.id, s])).values()];
  const before = await trx.selectFrom('catalog_services').selectAll().execute();
  const key = (s: CatalogServiceRow) => JSON.stringify([s.name, s.system, s.system_name, s.owner]);
  const old = new Map(before.map((s) => [s.id, s]));
  const now = new Map(services.map((s) => [s.id, s]));
  const ids = [...new Set([...old.keys(), ...now.keys()])].filter((id) => {
    const [was, is] = [old.get(id), now.get(id)];
    return !was || !is || key(was) !== key(is);
  });
  const keys = ids.flatMap((id) => [id, old.get(id)?.name, now.get(id)?.name]);
  let gone = trx.deleteFrom('catalog_services');
  if (now.size > 0) gone = gone.where('id', 'not in', [...now.keys()]);
  await gone.execute();
  for (let i = 0; i < services.length; i += 1000)
    await trx
      .insertInto('catalog_services')
      .values(services.slice(i, i + 1000))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          name: sql.ref('excluded.name'),
          system: sql.ref('excluded.system'),
          system_name: sql.ref('excluded.system_name'),
          owner: sql.ref('excluded.owner'),
        }),
      )
      .execute();
  // A later attempt that failed (recorded already) still says so.
  const later = stored.attempted_at && stored.attempted_at > at;
  const state = {
    fetched_at: at,
    services: services.length,
    ...(later ? {} : { attempted_at: at, error: null }),
  };
  await trx
    .insertInto('catalog_snapshot')
    .values({ id: SNAPSHOT, ...state })
    .onConflict((oc) => oc.column('id').doUpdateSet(state))
    .execute();
  return { ids, keys: [...new Set(keys.filter((k): k is string => !!k))] };
}

/**
 * A failed fetch that started at `at`: the snapshot stays, the attempt and its reason are
 * recorded, unless a later attempt was recorded first.
 */
export async function recordSnapshotFailure(db: BillingDb, error: string, at: Date) {
  const state = { attempted_at: at, error: error.slice(0, 1000) };
  await db
    .insertInto('catalog_snapshot')
    .values({ id: SNAPSHOT, ...state })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet(state)
        .where(
          sql<boolean>`catalog_snapshot.attempted_at is null or catalog_snapshot.attempted_at <= ${at}`,
        ),
    )
    .execute();
}

/** The snapshot's service with this id (exact, then any case) or name (any case). */
export function findCatalogService(
  db: BillingDb,
  ref: string,
): Promise<CatalogServiceRow | undefined> {
  return db
    .selectFrom('catalog_services')
    .selectAll()
    .where(sql<boolean>`lower(id) = lower(${ref}) or lower(name) = lower(${ref})`)
    .orderBy(sql`id = ${ref}`, 'desc')
    .orderBy(sql`lower(id) = lower(${ref})`, 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** The snapshot's services with these ids (for showing targets by name). */
export async function catalogServicesById(db: BillingDb, ids: string[]) {
  if (ids.length === 0) return new Map<string, CatalogServiceRow>();
  const rows = await db.selectFrom('catalog_services').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export interface OwnerRuleFilter {
  /** Only rules pointing to this catalog service id. */
  target?: string;
  provider?: string;
}

/** A page of owner rules in the order they apply: priority, then id. */
export function listOwnerRules(db: BillingDb, filter: OwnerRuleFilter, page: Page) {
  let query = db.selectFrom('owner_rules').selectAll();
  if (filter.target !== undefined) query = query.where('target', '=', filter.target);
  if (filter.provider !== undefined)
    query = query.where(sql<boolean>`lower(provider) = lower(${filter.provider})`);
  return query.orderBy('priority').orderBy('id').limit(page.limit).offset(page.offset).execute();
}

export function findOwnerRule(db: BillingDb, id: string) {
  return db.selectFrom('owner_rules').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The priority a rule gets when none is given: after the last one, by 10. */
export async function nextPriority(db: BillingDb, table: 'owner_rules' | 'allocation_rules') {
  const row = await db
    .selectFrom(table)
    .select(sql<number>`coalesce(max(priority), 0)::int`.as('last'))
    .executeTakeFirstOrThrow();
  return row.last + 10;
}

export function insertOwnerRule(db: BillingDb, rule: NewOwnerRule) {
  return db.insertInto('owner_rules').values(rule).returningAll().executeTakeFirstOrThrow();
}

export function updateOwnerRule(db: BillingDb, id: string, changes: OwnerRuleChanges) {
  return db
    .updateTable('owner_rules')
    .set({ ...changes, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function deleteOwnerRule(db: BillingDb, id: string) {
  return db.deleteFrom('owner_rules').where('id', '=', id).returningAll().executeTakeFirst();
}

/** The team owning the catalog service `id` as the snapshot says (null: none, or unknown). */
export async function teamOfService(db: BillingDb, id: string | null | undefined) {
  if (!id) return null;
  const row = await db
    .selectFrom('catalog_services')
    .select('owner')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.owner ?? null;
}
