import { returnPathOf } from './bounces/return-path.js';
import type { EventEmitter } from 'node:events';
import {
  INTERRUPTED,
  JobFailure,
  type AuthSettings,
  type JobDefinition,
  type JobType,
  type ServiceContext,
} from '@platform/core';
import type { CommunicationConfig } from '../config.js';
import type {
  AttemptOutcome,
  CommunicationDatabase,
  CommunicationDb,
  DeliveryRow,
  RouteStep,
} from '../database.js';
import { insertInboxMessage } from '../repositories/inbox.js';
import { MAX_ROUTE } from '../schemas/deliveries.js';
import { unsubscribeUrl } from './unsubscribe.js';
import { resolvedConfig, secretVault } from './providers/channel-config.js';
import { DeliveryError, permanent, SENDERS, transient, type Message } from './providers/index.js';
import { channelById } from '../repositories/channels.js';
import {
  attemptOutcomes,
  attemptsOf,
  failDelivery,
  findDelivery,
  moveToChannel,
  recordAttempt,
  recordFencedAttempt,
} from '../repositories/deliveries.js';
import { registrationOf } from '../repositories/registrations.js';

export interface DeliveryPayload {
  deliveryId: string;
}

/** What the ledger is told (its POST /events body). */
export interface LedgerEvent {
  action: string;
  resource: string;
  metadata: Record<string, string | number | boolean | null>;
  timestamp: string;
}

/** Appends events to the ledger through the platform's client, retried as the audit trail is. */
export const ledgerJob = (
  ctx: ServiceContext<CommunicationDatabase, CommunicationConfig>,
): JobDefinition<LedgerEvent, unknown, never, CommunicationDatabase> => ({
  kind: 'ledger-event',
  maxAttempts: 50,
  handler: async (event) => {
    await ctx.platform.ledger.createEvent({ body: { ...event, service: 'communication' } });
  },
});

interface Deps {
  db: CommunicationDb;
  config: CommunicationConfig;
  auth: AuthSettings;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  ledger: JobType<LedgerEvent, never, CommunicationDatabase>;
  /** Told the recipient of each inbox message written (live streams). */
  inbox: EventEmitter;
}

/** The route's next channel after the current one that is not skipped. */
function nextStep(delivery: DeliveryRow): RouteStep | undefined {
  const route = delivery.route ?? [];
  const at = route.findIndex((s) => s.channelId === delivery.channel_id);
  return route.slice(at + 1).find((s) => s.skipped === null);
}

/** Runs a delivery's job may lose to crashes on top of its COMMUNICATION_MAX_ATTEMPTS. */
export const INTERRUPTIONS_ALLOWED = 2;

const INTERRUPTED_ATTEMPT =
  'The service stopped during this attempt: the provider may or may not have received it';

/**
 * The durable job that sends one delivery (libs/core jobs: stored with the delivery, claimed by
 * one instance at a time, resumed after a crash). Each attempt is recorded; a transient failure
 * is tried again with backoff up to COMMUNICATION_MAX_ATTEMPTS, a permanent one fails at once.
 * The records a run writes are fenced: a run that lost the job to another instance writes nothing.
 */
export function deliveryJob(
  { db, config, auth, log, ledger, inbox }: Deps,
  routed: boolean,
): JobDefinition<DeliveryPayload, unknown, never, CommunicationDatabase> {
  const vault = secretVault(auth);

  /** Sends the message; the provider's message id, or a DeliveryError. */
  async function send(delivery: DeliveryRow, signal: AbortSignal): Promise<string> {
    const deliveryId = delivery.id;
    const channel = await channelById(db, delivery.channel_id);
    if (!channel) throw permanent(`Channel ${delivery.channel_id} was deleted before sending`);
    if (channel.status !== 'active') throw permanent(`Channel ${channel.name} is disabled`);
    const registration = await registrationOf(db, delivery.app_id, channel.id);
    if (!registration)
      throw permanent(
        `App ${delivery.app_id} is no longer registered on channel ${channel.name}: its registration was deleted before sending`,
      );
    if (!registration.enabled)
      throw permanent(
        `Registration ${registration.id} of app ${delivery.app_id} on channel ${channel.name} was disabled before sending`,
      );
    if (channel.provider === 'inbox') {
      const id = await insertInboxMessage(db, {
        recipient: delivery.target,
        app_id: delivery.app_id,
        delivery_id: delivery.id,
        category: delivery.category,
        subject: delivery.subject,
        text: delivery.text,
        html: delivery.html,
      });
      inbox.emit('message', delivery.target.toLowerCase());
      return id;
    }
    const resolved = resolvedConfig(channel.provider, channel.config, config, vault);
    const message: Message = {
      deliveryId,
      appId: delivery.app_id,
      channelId: delivery.channel_id,
      target: delivery.target,
      subject: delivery.subject,
      text: delivery.text,
      html: delivery.html,
      metadata: delivery.metadata,
      createdAt: delivery.created_at.toISOString(),
      requestId: delivery.request_id,
      slack: delivery.slack,
      unsubscribeUrl: unsubscribeUrl(config, {
        recipient: delivery.recipient ?? undefined,
        category: delivery.category ?? undefined,
        channel: channel.name,
      }),
    };
    return SENDERS[channel.provider](message, {
      config: resolved,
      timeoutMs: config.timeoutMs,
      allowPrivateTargets: config.allowPrivateTargets,
      smtpCa: config.smtpCa,
      ...(config.bounces ? { returnPath: returnPathOf(config.bounces.address, deliveryId) } : {}),
      signal,
      log,
    });
  }

  /** Rows `interrupted` for the runs before `number` that left no record (cut short by a stop). */
  async function recordInterruptions(
    trx: CommunicationDb,
    deliveryId: string,
    number: number,
    outcomes: Map<number, AttemptOutcome>,
  ) {
    for (let n = 1; n < number; n++)
      if (!outcomes.has(n)) {
        await recordAttempt(trx, deliveryId, {
          number: n,
          outcome: 'interrupted',
          error: INTERRUPTED_ATTEMPT,
          durationMs: null,
        });
        outcomes.set(n, 'interrupted');
      }
  }

  /** The ledger's record of a delivery that failed for good (workflows listen for it). */
  const failed = (delivery: DeliveryRow, error: string) =>
    ledger.enqueue({
      action: 'communication.delivery.failed',
      resource: `communication.delivery:${delivery.id}`,
      metadata: {
        appId: delivery.app_id,
        channelId: delivery.channel_id,
        provider: delivery.provider,
        category: delivery.category,
        template: delivery.template_id,
        error: error.slice(0, 500),
      },
      timestamp: new Date().toISOString(),
    });

  return {
    kind: routed ? 'deliver-routed' : 'deliver',
    // Room for interruptions: a run cut short by a crash counts in the jobs lib, not as a provider
    // attempt. COMMUNICATION_MAX_ATTEMPTS bounds the provider attempts, counted from the records
    // (per channel of a route: each channel of a routed delivery has its own).
    maxAttempts: config.maxAttempts * (routed ? MAX_ROUTE : 1) + INTERRUPTIONS_ALLOWED,
    backoffMs: (attempts) => Math.min(config.retryMs * 2 ** (attempts - 1), 300_000),
    async handler({ deliveryId }, ctx) {
      const number = ctx.job.attempts;
      const delivery = await findDelivery(db, deliveryId);
      // Sent or failed by a run that died before its job was recorded as done: nothing to do.
      if (!delivery || delivery.status !== 'accepted') return null;
      const outcomes = number > 1 ? await attemptOutcomes(db, deliveryId) : new Map();
      await recordInterruptions(db, deliveryId, number, outcomes);
      const rows = number > 1 ? await attemptsOf(db, deliveryId) : [];
      const tried = rows.filter(
        (r) =>
          isProviderAttempt(r.outcome) &&
          (r.channel_id ?? delivery.channel_id) === delivery.channel_id,
      ).length;
      // The last provider attempt was recorded but the run died before the job failed.
      if (tried >= config.maxAttempts) {
        const error = delivery.error ?? 'COMMUNICATION_MAX_ATTEMPTS attempts were made';
        await failed(delivery, error);
        throw new JobFailure(error);
      }

      const started = Date.now();
      const fence = (trx: CommunicationDb) => ctx.fence(trx);
      let providerMessageId: string;
      try {
        providerMessageId = await send(delivery, ctx.signal);
      } catch (error) {
        // Closing, or the job was taken over: this run records nothing.
        if (ctx.signal.aborted) throw error;
        let failure: DeliveryError;
        if (error instanceof DeliveryError) failure = error;
        else {
          log.error({ err: error, delivery: deliveryId }, 'communication: attempt failed');
          failure = transient('The attempt failed inside the service; see the service log');
        }
        const last =
          !failure.transient || tried + 1 >= config.maxAttempts || number >= ctx.job.max_attempts;
        const next = last && number < ctx.job.max_attempts ? nextStep(delivery) : undefined;
        const attempt = {
          number,
          outcome: last ? ('failed' as const) : ('retry' as const),
          error: next
            ? `${failure.message}; falling back to channel ${next.channel}`
            : failure.message,
          durationMs: Date.now() - started,
          channelId: delivery.channel_id,
        };
        if (next) {
          // The route's next channel: the job runs again (after its backoff) on it.
          await db.transaction().execute(async (trx) => {
            await fence(trx);
            await recordAttempt(trx, deliveryId, attempt);
            await moveToChannel(trx, deliveryId, next);
          });
          throw new Error(attempt.error);
        }
        await recordFencedAttempt(db, fence, deliveryId, attempt);
        if (last) await failed(delivery, failure.message);
        throw last ? new JobFailure(failure.message) : new Error(failure.message);
      }
      await recordFencedAttempt(db, fence, deliveryId, {
        number,
        outcome: 'sent',
        error: null,
        durationMs: Date.now() - started,
        providerMessageId,
        channelId: delivery.channel_id,
      });
      return { providerMessageId };
    },
    async onFail(trx, job, error) {
      const deliveryId = job.payload.deliveryId;
      if (error !== INTERRUPTED) return failDelivery(trx, deliveryId, error);
      // The jobs lib gave up after too many interruptions: say so in the delivery's words.
      const db = trx as CommunicationDb;
      const outcomes = await attemptOutcomes(db, deliveryId);
      await recordInterruptions(db, deliveryId, job.attempts, outcomes);
      const stops = [...outcomes.values()].filter((o) => o === 'interrupted').length;
      await failDelivery(
        trx,
        deliveryId,
        `The service stopped during ${stops} attempts of this delivery (the last one ${job.attempts - 1}), too many to try again: the provider may or may not have received it; send it again if it was not`,
      );
    },
  };
}

const isProviderAttempt = (outcome: AttemptOutcome) => outcome !== 'interrupted';
