import { jsonb, sql } from '@platform/db';
import type {
  AttemptOutcome,
  AttemptRow,
  CommunicationDb,
  DeliveryRow,
  DeliveryStatus,
  Provider,
} from '../database.js';

export interface NewDelivery {
  id: string;
  app_id: string;
  channel_id: string;
  provider: Provider;
  target: string;
  subject: string | null;
  text: string;
  html: string | null;
  metadata: Record<string, unknown>;
  live: boolean;
  idempotency_key: string | null;
  request_hash: string | null;
  request_id: string | null;
}

export function insertDelivery(db: CommunicationDb, delivery: NewDelivery): Promise<DeliveryRow> {
  return db
    .insertInto('deliveries')
    .values({ ...delivery, metadata: jsonb(delivery.metadata) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findDelivery(
  db: CommunicationDb,
  id: string,
  appId?: string,
): Promise<DeliveryRow | undefined> {
  let query = db.selectFrom('deliveries').selectAll().where('id', '=', id);
  if (appId !== undefined) query = query.where('app_id', '=', appId);
  return query.executeTakeFirst();
}

export function deliveryByKey(
  db: CommunicationDb,
  appId: string,
  key: string,
): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('app_id', '=', appId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** An app's deliveries, newest first; `channelId` is an id. */
export function listDeliveries(
  db: CommunicationDb,
  appId: string,
  filter: { channelId?: string; status?: DeliveryStatus },
  page: { limit: number; offset: number },
): Promise<DeliveryRow[]> {
  let query = db.selectFrom('deliveries').selectAll().where('app_id', '=', appId);
  if (filter.channelId !== undefined) query = query.where('channel_id', '=', filter.channelId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export function attemptsOf(db: CommunicationDb, deliveryId: string): Promise<AttemptRow[]> {
  return db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('number')
    .execute();
}

/** The outcome of each attempt recorded for a delivery, by number. */
export async function attemptOutcomes(db: CommunicationDb, deliveryId: string) {
  const rows = await db
    .selectFrom('delivery_attempts')
    .select(['number', 'outcome'])
    .where('delivery_id', '=', deliveryId)
    .execute();
  return new Map(rows.map((r) => [r.number, r.outcome]));
}

export interface AttemptRecord {
  number: number;
  outcome: AttemptOutcome;
  error: string | null;
  durationMs: number | null;
  /** Set with outcome `sent`: the delivery is sent with this provider message id. */
  providerMessageId?: string;
}

/**
 * Records an attempt and what it changes in the delivery: its attempt count and last error, and
 * `sent` with the provider's message id when it succeeded. Only a delivery still `accepted` moves.
 */
export async function recordAttempt(
  db: CommunicationDb,
  deliveryId: string,
  attempt: AttemptRecord,
): Promise<void> {
  await db
    .insertInto('delivery_attempts')
    .values({
      delivery_id: deliveryId,
      number: attempt.number,
      outcome: attempt.outcome,
      error: attempt.error,
      duration_ms: attempt.durationMs,
    })
    .onConflict((oc) => oc.columns(['delivery_id', 'number']).doNothing())
    .execute();
  const sent = attempt.outcome === 'sent';
  await db
    .updateTable('deliveries')
    .set({
      attempt_count: sql`greatest(attempt_count, ${attempt.number})`,
      error: sent ? null : attempt.error,
      ...(sent ? { status: 'sent' as const, provider_message_id: attempt.providerMessageId } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', deliveryId)
    .where('status', '=', 'accepted')
    .execute();
}

/**
 * recordAttempt in one transaction that `fence` (the run's hold on its job) checks first: a run
 * that lost its job to another instance writes nothing.
 */
export function recordFencedAttempt(
  db: CommunicationDb,
  fence: (trx: CommunicationDb) => Promise<void>,
  deliveryId: string,
  attempt: AttemptRecord,
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    await fence(trx);
    await recordAttempt(trx, deliveryId, attempt);
  });
}

/** The end of a delivery that will not be sent: `failed` with the reason. */
export async function failDelivery(db: CommunicationDb, deliveryId: string, error: string) {
  await db
    .updateTable('deliveries')
    .set({ status: 'failed', error, updated_at: sql`now()` })
    .where('id', '=', deliveryId)
    .where('status', '=', 'accepted')
    .execute();
}
