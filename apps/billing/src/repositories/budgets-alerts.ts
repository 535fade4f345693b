import { isForeignKeyViolation, jsonb, sql, type Insertable } from '@platform/db';
import type { AlertRow, AlertsTable, BillingDb } from '../database.js';

// The alerts' outbox (domain/budgets-outbox.ts): claims, leases, outcomes, expiry.

export type NewAlert = Omit<
  Insertable<AlertsTable>,
  'status' | 'attempts' | 'failures' | 'lease' | 'record_started_at'
>;

/** Of these claim keys, those already claimed (1,000 keys a query). */
export async function claimedKeys(db: BillingDb, keys: string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    const rows = await db.selectFrom('alerts').select('key').where('key', 'in', chunk).execute();
    for (const row of rows) taken.add(row.key);
  }
  return taken;
}

/** The columns of a claim, as values of an insert's select (typed: pg infers none there). */
function claimValues(alert: NewAlert) {
  return [
    sql<string>`${alert.id}::text`.as('id'),
    sql<string>`${alert.key}::text`.as('key'),
    sql<string>`${alert.period ?? null}::text`.as('period'),
    sql<number>`${alert.threshold ?? null}::integer`.as('threshold'),
    sql<string>`${alert.basis ?? null}::text`.as('basis'),
    sql<string>`${alert.subject}::text`.as('subject'),
    sql<string>`${alert.text}::text`.as('text'),
    sql<string>`${jsonb(alert.details)}::jsonb`.as('details'),
    sql<Date>`${alert.expires_at ?? null}::timestamptz`.as('expires_at'),
  ];
}
const CLAIM_COLUMNS = [
  'id',
  'key',
  'period',
  'threshold',
  'basis',
  'subject',
  'text',
  'details',
  'expires_at',
] as const;

/**
 * Claims a budget's alert: inserts it unless its key is taken, with the channel the budget has
 * now, and only while the budget exists. The row when this call claimed it; undefined when another
 * evaluation (this instance or another) had, or the budget is gone: what makes each alert once.
 */
export async function claimBudgetAlert(db: BillingDb, budgetId: string, alert: NewAlert) {
  try {
    return await db
      .insertInto('alerts')
      .columns([...CLAIM_COLUMNS, 'budget_id', 'channel'])
      .expression(
        db
          .selectFrom('budgets')
          .select([...claimValues(alert), 'id as budget_id', 'channel'])
          .where('id', '=', budgetId),
      )
      .onConflict((oc) => oc.column('key').doNothing())
      .returningAll()
      .executeTakeFirst();
  } catch (error) {
    // Deleted between the select and the insert's check of its key.
    if (isForeignKeyViolation(error)) return undefined;
    throw error;
  }
}

/**
 * Claims an anomaly's alert to a channel, only while the anomaly is open (its row locked in share
 * mode: a dismissal at the same moment comes first or after, never in between).
 */
export async function claimAnomalyAlert(
  db: BillingDb,
  anomalyId: string,
  channel: string,
  alert: NewAlert,
) {
  try {
    return await db
      .insertInto('alerts')
      .columns([...CLAIM_COLUMNS, 'anomaly_id', 'channel'])
      .expression(
        db
          .selectFrom('anomalies')
          .select([
            ...claimValues(alert),
            'id as anomaly_id',
            sql<string>`${channel}::text`.as('c'),
          ])
          .where('id', '=', anomalyId)
          .where('status', '=', 'open')
          .forShare(),
      )
      .onConflict((oc) => oc.column('key').doNothing())
      .returningAll()
      .executeTakeFirst();
  } catch (error) {
    if (isForeignKeyViolation(error)) return undefined;
    throw error;
  }
}

/**
 * Expires the pending alerts that are no longer current: a budget's a day after its period (its
 * `expires_at`), an anomaly's once the anomaly is no longer open. How many.
 */
export async function expireAlerts(db: BillingDb): Promise<number> {
  const rows = await db
    .updateTable('alerts')
    .set({ status: 'expired', lease: null, locked_until: null })
    .where('status', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', sql<Date>`now()`),
        eb(
          'anomaly_id',
          'in',
          eb.selectFrom('anomalies').select('id').where('status', '<>', 'open'),
        ),
      ]),
    )
    .returning('id')
    .execute();
  return rows.length;
}

/** What the outbox works on: alerts to send, or (sent or expired) budget alerts to record. */
export type Work = 'send' | 'record';

/** The database's clock (leases and retries are in its time). */
export async function dbNow(db: BillingDb): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
  return new Date(rows[0].now);
}

/**
 * Takes up to `limit` alerts of one kind of work, oldest first, that no instance holds and whose
 * retry time is not after `due` (the start of this run: an alert that failed in this run waits for
 * the next), holding them with `lease` for `leaseMs`.
 */
export function leaseAlerts(
  db: BillingDb,
  work: Work,
  options: { lease: string; leaseMs: number; limit: number; due: Date },
) {
  const kind = db
    .selectFrom('alerts')
    .select('id')
    .where((eb) =>
      work === 'send'
        ? eb('status', '=', 'pending')
        : eb.and([
            eb('status', '<>', 'pending'),
            eb('recorded_at', 'is', null),
            eb('budget_id', 'is not', null),
          ]),
    );
  return db
    .updateTable('alerts')
    .set({
      lease: options.lease,
      locked_until: sql<Date>`now() + make_interval(secs => ${options.leaseMs / 1000})`,
    })
    .where(
      'id',
      'in',
      kind
        .where((eb) =>
          eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', options.due)]),
        )
        .orderBy('created_at')
        .orderBy('id')
        .limit(options.limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute()
    .then((rows: AlertRow[]) =>
      rows.sort((a, b) => +a.created_at - +b.created_at || (a.id < b.id ? -1 : 1)),
    );
}

/** Holds a leased alert for another `leaseMs` before working on it; false: the lease was lost. */
export async function renewLease(db: BillingDb, id: string, lease: string, leaseMs: number) {
  const row = await db
    .updateTable('alerts')
    .set({ locked_until: sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where('id', '=', id)
    .where('lease', '=', lease)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks the start of an attempt to record the alert, or that the ledger has it. */
export async function markAlertRecording(db: BillingDb, id: string, done: boolean) {
  await db
    .updateTable('alerts')
    .set(
      done
        ? { recorded_at: sql<Date>`coalesce(recorded_at, now())` }
        : { record_started_at: sql<Date>`coalesce(record_started_at, now())` },
    )
    .where('id', '=', id)
    .execute();
}

/**
 * What an attempt on a leased alert found; the lease is let go. A failure (`error` without
 * `sent`, or `failed`) sets the retry time `retryMs` × 2^(failures in a row − 1), at most 6 h.
 */
export function finishAlert(
  db: BillingDb,
  id: string,
  lease: string,
  outcome: {
    sent?: { deliveryId: string | null };
    error?: string | null;
    attempted: boolean;
    failed: boolean;
    retryMs: number;
  },
) {
  const backoff = sql<Date>`now() + make_interval(secs => least(
    ${outcome.retryMs / 1000}::float8 * power(2, least(failures, 20)), 21600))`;
  return db
    .updateTable('alerts')
    .set((eb) => ({
      lease: null,
      locked_until: outcome.failed ? backoff : null,
      failures: outcome.failed ? eb('failures', '+', 1) : 0,
      ...(outcome.sent
        ? {
            status: 'sent' as const,
            sent_at: sql<Date>`now()`,
            delivery_id: outcome.sent.deliveryId,
            error: null,
          }
        : {}),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      ...(outcome.attempted ? { attempts: eb('attempts', '+', 1) } : {}),
    }))
    .where('id', '=', id)
    .where('lease', '=', lease)
    .execute();
}
