import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { ApiError } from '@platform/core';
import type { InferenceDb, KeyLimitsRow } from '../database.js';
import { addUsage, countRequest, findLimits, spentIn } from '../repositories/keys.js';
import type { Route } from './routing.js';

export const PERIODS = ['day', 'month'] as const;
export type Period = (typeof PERIODS)[number];

/** Seconds until the current UTC minute, day or month ends (at least 1). */
export function secondsLeft(window: 'minute' | Period, now = new Date()): number {
  const end = new Date(now);
  if (window === 'minute') end.setUTCSeconds(60, 0);
  else if (window === 'day') end.setUTCHours(24, 0, 0, 0);
  else {
    end.setUTCMonth(end.getUTCMonth() + 1, 1);
    end.setUTCHours(0, 0, 0, 0);
  }
  return Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000));
}

const money = (micros: number) => `$${(micros / 1e6).toFixed(6).replace(/0{1,4}$/, '')}`;

/** Whether `model` (as the caller named it) is one of the key's allowed models. */
export const allowsModel = (limits: Pick<KeyLimitsRow, 'models'>, model: string) =>
  !limits.models || limits.models.some((m) => m.toLowerCase() === model.toLowerCase());

/**
 * Keys' limits, enforced for every call made with a platform API key and counted in the
 * database (every instance on it shares the counts): requests per minute are counted as a call is
 * admitted, atomically (never more than `rpm` in a UTC minute); tokens and cost when it ends, so a
 * call admitted under the limit may take the key beyond it, and the next is refused. A key without
 * limits is counted too: its usage is readable.
 */
export class KeyMeter {
  /** This instance's counts not yet written: a key's next call waits for them. */
  private readonly pending = new Map<string, Set<Promise<void>>>();

  constructor(
    private readonly db: InferenceDb,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Resolves once this instance's counts of the key so far are written. */
  async settled(keyId: string) {
    for (const write of [...(this.pending.get(keyId) ?? [])]) await write;
  }

  /**
   * Admits a call of `keyId` to `routes` (its model, then its fallbacks), or throws: 403 for a
   * model the key may not call, 429 with Retry-After (set on `reply`) beyond a limit. Answers the
   * key's limits (undefined when it has none).
   */
  async admit(keyId: string, routes: Route[], reply: FastifyReply) {
    await this.settled(keyId);
    const limits = await findLimits(this.db, keyId);
    for (const route of routes)
      if (limits && !allowsModel(limits, route.requested))
        throw new ApiError(
          'FORBIDDEN',
          `Key ${keyId} may not call model ${route.requested}: its limits allow only ${limits.models!.join(', ')}`,
        );
    const minute = await countRequest(this.db, keyId, limits?.rpm ?? null);
    if (!limits) return undefined;
    const refuse = (window: 'minute' | Period, message: string) => {
      reply.header('retry-after', String(secondsLeft(window)));
      return new ApiError('RATE_LIMITED', message);
    };
    if (!minute)
      throw refuse(
        'minute',
        `Key ${keyId} reached its limit of ${limits.rpm} requests per minute (rpm); retry after the minute ends`,
      );
    if (limits.tpm !== null && Number(minute.tokens) >= limits.tpm)
      throw refuse(
        'minute',
        `Key ${keyId} reached its limit of ${limits.tpm} tokens per minute (tpm): ${minute.tokens} used this minute`,
      );
    if (limits.budget_micros !== null) {
      const period = (limits.period ?? 'month') as Period;
      const spent = await spentIn(this.db, keyId, period);
      const budget = Number(limits.budget_micros);
      if (spent >= budget)
        throw refuse(
          period,
          `Key ${keyId} reached its budget of ${money(budget)} per ${period} (budgetMicros ${budget}): ${money(spent)} spent this ${period}`,
        );
    }
    return limits;
  }

  /** Counts a finished call's tokens and cost; written at once, failures logged. */
  record(keyId: string, tokens: number, costMicros: number) {
    const writes = this.pending.get(keyId) ?? new Set();
    this.pending.set(keyId, writes);
    const write = addUsage(this.db, keyId, tokens, costMicros).catch((error: unknown) =>
      this.log.error({ err: error, keyId, tokens, costMicros }, 'inference: key usage not counted'),
    );
    writes.add(write);
    void write.finally(() => {
      writes.delete(write);
      if (!writes.size) this.pending.delete(keyId);
    });
  }
}
