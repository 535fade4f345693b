import { jsonb, sql } from '@platform/db';
import type {
  RouteStep,
  SlackForm,
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
  recipient?: string | null;
  category?: string | null;
  template_id?: string | null;
  template_version?: number | null;
  locale?: string | null;
  slack?: SlackForm | null;
  route?: RouteStep[] | null;
  send_at?: Date | null;
  scheduled?: boolean;
  status?: 'skipped';
  error?: string;
}

export function insertDelivery(db: CommunicationDb, delivery: NewDelivery): Promise<DeliveryRow> {
  const { slack, route } = delivery;
  return db
    .insertInto('deliveries')
    .values({
      ...delivery,
      metadata: jsonb(delivery.metadata),
      slack: slack ? jsonb(slack) : null,
      route: route ? jsonb(route) : null,
    })
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
  /** The channel tried. */
  channelId?: string;
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
      channel_id: attempt.channelId ?? null,
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

/** Delayed deliveries now due, not yet handed to the delivery job. */
export function dueScheduled(db: CommunicationDb, limit: number): Promise<DeliveryRow[]> {
  return db
    .selectFrom('deliveries')
    .selectAll()
    .where('scheduled', '=', true)
    .where('send_at', '<=', sql<Date>`now()`)
    .orderBy('send_at')
    .limit(limit)
    .execute();
}

/** A delayed delivery no longer to be sent (opted out since): `skipped` with the reason. */
export async function skipScheduled(
  db: CommunicationDb,
  id: string,
  error: string,
  route: RouteStep[] | null,
) {
  const row = await db
    .updateTable('deliveries')
    .set({
      status: 'skipped',
      error,
      scheduled: false,
      ...(route ? { route: jsonb(route) } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('scheduled', '=', true)
    .where('status', '=', 'accepted')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Hands a delayed delivery over (in the job's transaction): false when another did first. */
export async function unschedule(db: CommunicationDb, id: string) {
  const row = await db
    .updateTable('deliveries')
    .set({ scheduled: false, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('scheduled', '=', true)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The fallback: the delivery moves to the route's next channel, still accepted. */
export async function moveToChannel(
  db: CommunicationDb,
  id: string,
  step: RouteStep,
  route?: RouteStep[],
) {
  await db
    .updateTable('deliveries')
    .set({
      channel_id: step.channelId,
      provider: step.provider,
      target: step.target,
      ...(route ? { route: jsonb(route) } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('status', '=', 'accepted')
    .execute();
}

/**
 * A digest's delivery, its message rendered at the flush with every item: the content and status
 * replaced (`accepted`, or `skipped` when every channel is opted out now; the delivery stored at
 * the digest's first send may be either). One that ended otherwise is answered unchanged.
 */
export async function replaceDelivery(
  db: CommunicationDb,
  delivery: NewDelivery,
): Promise<DeliveryRow> {
  const { slack, route } = delivery;
  return db
    .updateTable('deliveries')
    .set({
      channel_id: delivery.channel_id,
      provider: delivery.provider,
      target: delivery.target,
      subject: delivery.subject,
      text: delivery.text,
      html: delivery.html,
      metadata: jsonb(delivery.metadata),
      live: delivery.live,
      recipient: delivery.recipient,
      category: delivery.category,
      template_version: delivery.template_version,
      locale: delivery.locale,
      slack: slack ? jsonb(slack) : null,
      route: route ? jsonb(route) : null,
      status: delivery.status ?? 'accepted',
      error: delivery.error ?? null,
      updated_at: sql`now()`,
    })
    .where('id', '=', delivery.id)
    .where('status', 'in', ['accepted', 'skipped'])
    .returningAll()
    .executeTakeFirst()
    .then(
      (row) =>
        row ??
        db
          .selectFrom('deliveries')
          .selectAll()
          .where('id', '=', delivery.id)
          .executeTakeFirstOrThrow(),
    );
}
