import { INTERRUPTED, JobFailure, type AuthSettings, type JobDefinition } from '@platform/core';
import type { CommunicationConfig } from '../config.js';
import type {
  AttemptOutcome,
  CommunicationDatabase,
  CommunicationDb,
  DeliveryRow,
} from '../database.js';
import { resolvedConfig, secretVault } from './providers/channel-config.js';
import { DeliveryError, permanent, SENDERS, transient, type Message } from './providers/index.js';
import { channelById } from '../repositories/channels.js';
import {
  attemptOutcomes,
  failDelivery,
  findDelivery,
  recordAttempt,
  recordFencedAttempt,
} from '../repositories/deliveries.js';
import { registrationOf } from '../repositories/registrations.js';

export interface DeliveryPayload {
  deliveryId: string;
}

interface Deps {
  db: CommunicationDb;
  config: CommunicationConfig;
  auth: AuthSettings;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
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
export function deliveryJob({
  db,
  config,
  auth,
  log,
}: Deps): JobDefinition<DeliveryPayload, unknown, never, CommunicationDatabase> {
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
    };
    return SENDERS[channel.provider](message, {
      config: resolved,
      timeoutMs: config.timeoutMs,
      allowPrivateTargets: config.allowPrivateTargets,
      smtpCa: config.smtpCa,
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

  return {
    kind: 'deliver',
    // Room for interruptions: a run cut short by a crash counts in the jobs lib, not as a provider
    // attempt. COMMUNICATION_MAX_ATTEMPTS bounds the provider attempts, counted from the records.
    maxAttempts: config.maxAttempts + INTERRUPTIONS_ALLOWED,
    backoffMs: (attempts) => Math.min(config.retryMs * 2 ** (attempts - 1), 300_000),
    async handler({ deliveryId }, ctx) {
      const number = ctx.job.attempts;
      const delivery = await findDelivery(db, deliveryId);
      // Sent or failed by a run that died before its job was recorded as done: nothing to do.
      if (!delivery || delivery.status !== 'accepted') return null;
      const outcomes = number > 1 ? await attemptOutcomes(db, deliveryId) : new Map();
      await recordInterruptions(db, deliveryId, number, outcomes);
      const tried = [...outcomes.values()].filter(isProviderAttempt).length;
      // The last provider attempt was recorded but the run died before the job failed.
      if (tried >= config.maxAttempts)
        throw new JobFailure(delivery.error ?? 'COMMUNICATION_MAX_ATTEMPTS attempts were made');

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
        await recordFencedAttempt(db, fence, deliveryId, {
          number,
          outcome: last ? 'failed' : 'retry',
          error: failure.message,
          durationMs: Date.now() - started,
        });
        throw last ? new JobFailure(failure.message) : new Error(failure.message);
      }
      await recordFencedAttempt(db, fence, deliveryId, {
        number,
        outcome: 'sent',
        error: null,
        durationMs: Date.now() - started,
        providerMessageId,
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
