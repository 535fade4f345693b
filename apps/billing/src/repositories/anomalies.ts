import type { Ownership } from '@platform/core';
import { sql, type Insertable } from '@platform/db';
import type { AnomaliesTable, AnomalyRow, BillingDb, Page } from '../database.js';

export type NewAnomaly = Omit<
  Insertable<AnomaliesTable>,
  'status' | 'created_at' | 'updated_at' | 'judged_at' | 'resolved_at' | 'record_started_at'
>;

export interface AnomalyListFilter {
  /** A catalog service id or name (any case). */
  service?: string;
  provider?: string;
  status?: 'open' | 'dismissed' | 'resolved';
}

/** The catalog service ids a reference (id or name, any case) names, as a subquery. */
const serviceIds = (db: BillingDb, ref: string) =>
  db
    .selectFrom('catalog_services')
    .select('id')
    .where(sql<boolean>`lower(id) = ${ref.toLowerCase()} or lower(name) = ${ref.toLowerCase()}`);

/** A page of anomalies, the latest day first. */
export function listAnomalies(db: BillingDb, filter: AnomalyListFilter, page: Page) {
  let query = db.selectFrom('anomalies').selectAll();
  const { service, provider, status } = filter;
  if (service !== undefined)
    query = query
      .where('scope', '=', 'service')
      .where((eb) =>
        eb.or([
          eb(sql`lower(key)`, '=', service.toLowerCase()),
          eb('key', 'in', serviceIds(db, service)),
        ]),
      );
  if (provider !== undefined)
    query = query.where('scope', '=', 'provider').where('key', '=', provider);
  if (status !== undefined) query = query.where('status', '=', status);
  return query
    .orderBy('day', 'desc')
    .orderBy('size', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export const findAnomaly = (db: BillingDb, id: string) =>
  db.selectFrom('anomalies').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * Who owns an anomaly, for dismissing it: the team that owns its catalog service (the owner in
 * billing's copy of the catalog); no one for a provider's (admins only).
 */
export async function findAnomalyOwnership(
  db: BillingDb,
  id: unknown,
): Promise<Ownership | undefined> {
  if (typeof id !== 'string' || id === '') return undefined;
  const row = await db
    .selectFrom('anomalies')
    .leftJoin('catalog_services', (join) =>
      join.onRef('catalog_services.id', '=', 'anomalies.key').on('anomalies.scope', '=', 'service'),
    )
    .select(['anomalies.id', 'catalog_services.owner'])
    .where('anomalies.id', '=', id)
    .executeTakeFirst();
  return row && { createdBy: null, team: row.owner ?? null };
}

/** The names of these catalog services in billing's copy of the catalog, by id. */
export async function serviceNames(db: BillingDb, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('catalog_services')
    .select(['id', 'name'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Records an anomaly found by the detection run that started at `judged`: a new one is inserted
 * (`created`); one found again (spend imported late changes the figures) gets the new figures and
 * keeps its id and status, but for a resolved one, which is open again.
 */
export async function upsertAnomaly(db: BillingDb, anomaly: NewAnomaly, judged: Date) {
  const created = await db
    .insertInto('anomalies')
    .values({ ...anomaly, judged_at: judged })
    .onConflict((oc) => oc.columns(['scope', 'key', 'day']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (created) return { row: created, created: true };
  const { expected, actual, size, score, mad } = anomaly;
  const row = await db
    .updateTable('anomalies')
    .set({
      expected,
      actual,
      size,
      score,
      mad,
      judged_at: judged,
      status: sql<'open'>`case when status = 'resolved' then 'open' else status end`,
      resolved_at: null,
      updated_at: sql`now()`,
    })
    .where('scope', '=', anomaly.scope)
    .where('key', '=', anomaly.key)
    .where('day', '=', anomaly.day)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, created: false };
}

/**
 * Open anomalies that the detection run started at `judged` did not find again (outside the
 * lookback, or normal now) become `resolved`. How many.
 */
export async function resolveAnomalies(db: BillingDb, judged: Date): Promise<number> {
  const rows = await db
    .updateTable('anomalies')
    .set({ status: 'resolved', resolved_at: sql`now()`, updated_at: sql`now()` })
    .where('status', '=', 'open')
    .where((eb) => eb.or([eb('judged_at', 'is', null), eb('judged_at', '<', judged)]))
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * Dismisses an anomaly not dismissed yet (a dismissed one keeps its first reason), then drops its
 * alerts not sent yet, in one transaction: its status first, so that no alert is claimed after
 * (claims take only open anomalies, locking the row). The row as it is now.
 */
export async function dismissAnomaly(db: BillingDb, id: string, reason: string, by: string | null) {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('anomalies')
      .set({
        status: 'dismissed',
        reason,
        dismissed_by: by,
        dismissed_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .where('status', '<>', 'dismissed')
      .execute();
    await trx
      .deleteFrom('alerts')
      .where('anomaly_id', '=', id)
      .where('status', '=', 'pending')
      .execute();
    return findAnomaly(trx, id) as Promise<AnomalyRow>;
  });
}

/** The channels of the budgets covering a catalog service (by id or name) or a provider. */
export async function coveringChannels(
  db: BillingDb,
  scope: 'service' | 'provider',
  key: string,
): Promise<string[]> {
  let query = db.selectFrom('budgets').select('channel').distinct();
  query =
    scope === 'provider'
      ? query.where(sql<boolean>`lower(filter_provider) = ${key.toLowerCase()}`)
      : query.where((eb) =>
          eb.or([
            eb(sql`lower(filter_service)`, '=', key.toLowerCase()),
            eb(
              sql`lower(filter_service)`,
              'in',
              eb
                .selectFrom('catalog_services')
                .select(sql<string>`lower(name)`.as('n'))
                .where('id', '=', key),
            ),
          ]),
        );
  return (await query.orderBy('channel').execute()).map((r) => r.channel);
}

/** Anomalies not yet recorded in the ledger (billing.anomaly.alert), by id, after `after`. */
export function unrecordedAnomalies(db: BillingDb, after?: string, limit = 100) {
  let query = db.selectFrom('anomalies').selectAll().where('recorded_at', 'is', null);
  if (after !== undefined) query = query.where('id', '>', after);
  return query.orderBy('id').limit(limit).execute();
}

/** The ledger has its event. */
export async function markRecorded(db: BillingDb, id: string) {
  await db
    .updateTable('anomalies')
    .set({ recorded_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** An attempt to record it in the ledger begins (a retry asks the ledger first). */
export async function markRecordStarted(db: BillingDb, id: string) {
  await db
    .updateTable('anomalies')
    .set({ record_started_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** The alerts of these anomalies (one per channel). */
export function anomalyAlerts(db: BillingDb, anomalies: ReadonlyArray<Pick<AnomalyRow, 'id'>>) {
  if (anomalies.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('alerts')
    .selectAll()
    .where(
      'anomaly_id',
      'in',
      anomalies.map((a) => a.id),
    )
    .orderBy('created_at')
    .execute();
}
