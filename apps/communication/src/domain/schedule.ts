import { ApiError, newId } from '@platform/core';
import type { DeliveryRow, DigestsTable, RouteStep } from '../database.js';
import type { Selectable } from '@platform/db';
import { channelById } from '../repositories/channels.js';
import {
  dueScheduled,
  failDelivery,
  insertDelivery,
  moveToChannel,
  replaceDelivery,
  skipScheduled,
  unschedule,
  type NewDelivery,
} from '../repositories/deliveries.js';
import { optedOut } from '../repositories/preferences.js';
import { closeDigest, digestItems, dueDigests } from '../repositories/digests.js';
import type { SendInput } from '../schemas/deliveries.js';
import { compose, type Composed } from './compose.js';
import { isLive } from './providers/index.js';
import type { CommunicationContext } from './state.js';

// Delayed sends and digests wait in the database (a delivery `scheduled`, a digest `open`); one
// periodic sweep (a durable job: one schedule, one instance at a time) hands those due to the
// delivery job, in the transaction that stores the job, so that a restart or a second instance
// neither loses nor doubles one.

/** Thrown inside a hand-over's transaction to roll it back (another did it, or it changed). */
class Superseded extends Error {}

const BATCH = 100;

/** The delivery row of a composed send (`skipped` when no channel is left to try). */
export function deliveryOf(
  composed: Composed,
  appId: string,
  extra: Pick<NewDelivery, 'metadata' | 'idempotency_key' | 'request_hash' | 'request_id'> & {
    sendAt?: Date;
    id?: string;
  },
): NewDelivery {
  const { steps } = composed;
  const first = steps.find((s) => s.skipped === null) ?? steps[0];
  const later = extra.sendAt !== undefined && extra.sendAt.getTime() > Date.now();
  const allSkipped = steps.every((s) => s.skipped !== null);
  return {
    id: extra.id ?? newId(8, 'dl_'),
    app_id: appId,
    channel_id: first.channelId,
    provider: first.provider,
    target: first.target,
    subject: composed.subject,
    text: composed.text,
    html: composed.html,
    slack: composed.slack,
    metadata: extra.metadata,
    live: isLive(first.provider),
    idempotency_key: extra.idempotency_key,
    request_hash: extra.request_hash,
    request_id: extra.request_id,
    recipient: composed.recipient,
    category: composed.category,
    template_id: composed.template?.id ?? null,
    template_version: composed.template?.version ?? null,
    locale: composed.locale,
    route: steps.length > 1 ? steps : null,
    send_at: extra.sendAt ?? null,
    scheduled: later && !allSkipped,
    ...(allSkipped
      ? { status: 'skipped' as const, error: steps.map((s) => s.skipped).join('; ') }
      : {}),
  };
}

/** The job kind that sends a delivery: one with a route has room for each channel's attempts. */
export const jobOf = (ctx: CommunicationContext, route: RouteStep[] | null) =>
  route ? ctx.state.routedDeliveries : ctx.state.deliveries;

/**
 * Stores a delivery: handed to its job at once (sent here, or queued when this instance is busy),
 * or kept `scheduled` for the sweep when it is delayed or `skipped` when nothing is to be sent.
 * `also` runs in the same transaction; `existing`: the delivery is stored already (a digest's).
 */
export async function submit(
  ctx: CommunicationContext,
  delivery: NewDelivery,
  also?: (trx: CommunicationContext['db']) => Promise<void>,
  existing = false,
): Promise<DeliveryRow> {
  const write = existing ? replaceDelivery : insertDelivery;
  if (delivery.scheduled || delivery.status === 'skipped')
    return ctx.db.transaction().execute(async (trx) => {
      const row = await write(trx, delivery);
      await also?.(trx);
      return row;
    });
  const { record } = await jobOf(ctx, delivery.route ?? null).start(
    { deliveryId: delivery.id },
    {
      record: async (trx) => {
        const row = await write(trx, delivery);
        await also?.(trx);
        return row;
      },
      mayQueue: true,
    },
  );
  return record;
}

/** One digest: its items rendered through the template's digest form, sent as one delivery. */
async function flush(ctx: CommunicationContext, digest: Selectable<DigestsTable>) {
  const items = (await digestItems(ctx.db, digest.id)).map((i) => i.data);
  const send = digest.send as SendInput & { metadata?: Record<string, unknown> };
  let composed: Composed;
  try {
    // Composed again now: the preferences of the flush apply (an opt-out since wins: skipped).
    composed = await compose(
      { db: ctx.db, config: ctx.config, engine: ctx.state.templates },
      digest.app_id,
      { ...send, template: digest.template_id },
      items,
    );
  } catch (error) {
    // Anything but a refusal (a database error): the next sweep tries again.
    if (!(error instanceof ApiError)) throw error;
    // The template or a channel is gone or changed: the digest cannot be sent; say so, close it.
    const reason = `The digest could not be sent: ${error.message}`;
    await ctx.db.transaction().execute(async (trx) => {
      if ((await closeDigest(trx, digest.id)) !== 'closed') return;
      if (digest.delivery_id) await failDelivery(trx, digest.delivery_id, reason);
    });
    return;
  }
  const delivery = deliveryOf(composed, digest.app_id, {
    id: digest.delivery_id ?? undefined,
    metadata: { ...(send.metadata ?? {}), digest: digest.id, items: items.length },
    idempotency_key: null,
    request_hash: null,
    request_id: null,
  });
  // Closed (deleted with its items) where the delivery is stored; an item that joined after they
  // were read: render again on the next sweep.
  const also = async (trx: CommunicationContext['db']) => {
    if ((await closeDigest(trx, digest.id, items.length)) !== 'closed') throw new Superseded();
  };
  await submit(ctx, delivery, also, digest.delivery_id !== null).catch((error) => {
    if (!(error instanceof Superseded)) throw error;
  });
}

/** A delayed send's channels with the preferences of now: an opt-out since the send wins. */
async function stepsNow(ctx: CommunicationContext, due: DeliveryRow): Promise<RouteStep[]> {
  const steps: RouteStep[] = due.route
    ? due.route.map((s) => ({ ...s }))
    : [
        {
          channelId: due.channel_id,
          channel: (await channelById(ctx.db, due.channel_id))?.name ?? due.channel_id,
          provider: due.provider,
          target: due.target,
          skipped: null,
        },
      ];
  const { recipient, category } = due;
  if (!recipient || !category || ctx.config.requiredCategories.includes(category)) return steps;
  for (const step of steps) {
    if (step.skipped !== null) continue;
    const channel = { name: step.channel, provider: step.provider };
    if (await optedOut(ctx.db, recipient, category, channel))
      step.skipped = `${recipient} opted out of ${category} on ${step.channel} before it was due`;
  }
  return steps;
}

/** A delayed send due: to its job (on its first channel not opted out now), or skipped. */
async function handOver(ctx: CommunicationContext, due: DeliveryRow) {
  const steps = await stepsNow(ctx, due);
  const next = steps.find((s) => s.skipped === null);
  const route = due.route ? steps : null;
  if (!next) {
    const reason = steps.map((s) => s.skipped).join('; ');
    await skipScheduled(ctx.db, due.id, reason, route);
    return;
  }
  await jobOf(ctx, due.route).start(
    { deliveryId: due.id },
    {
      record: async (trx) => {
        if (!(await unschedule(trx, due.id))) throw new Superseded();
        if (next.channelId !== due.channel_id || route)
          await moveToChannel(trx, due.id, next, route ?? undefined);
      },
      mayQueue: true,
    },
  );
}

/**
 * The periodic sweep: due delayed deliveries to their job, due digests flushed; each on its own,
 * so that one that fails (logged) holds up no other. A failure of the database leaves it to the
 * next sweep; a digest that can no longer be composed fails (see flush).
 */
export async function sweep(ctx: CommunicationContext) {
  for (const due of await dueScheduled(ctx.db, BATCH))
    await handOver(ctx, due).catch((error) => {
      if (!(error instanceof Superseded))
        ctx.log.error({ err: error, delivery: due.id }, 'communication: a delayed send failed to start; the next sweep tries again'); // prettier-ignore
    });
  for (const digest of await dueDigests(ctx.db, BATCH))
    await flush(ctx, digest).catch((error) => {
      ctx.log.error({ err: error, digest: digest.id }, 'communication: a digest failed to flush; the next sweep tries again'); // prettier-ignore
    });
}
