import { isPlatformError } from '@platform/core';
import type { BudgetRow } from '../database.js';
import { claimAnomalyAlerts, detectAnomalies } from './anomalies.js';
import { evaluateBudgets } from './budgets.js';
import {
  deliverAlerts,
  recordAnomalies,
  registerOn,
  registrationOf,
  type Ctx,
} from './budgets-outbox.js';

// The alert work of one instance (domain/budgets-outbox.ts sends): budgets evaluated by the
// periodic job, on request, at once for a budget created or changed, and after items change here
// (at most once a minute); anomalies detected by their periodic job. One run at a time.

export { ALERT_APP, idempotencyKey } from './budgets-outbox.js';

/** How long after a change of items an instance evaluates the budgets... */
const SETTLE_MS = 2_000;
/** ...and at least how long after the last evaluation a change of items started. */
const CHANGE_GAP_MS = 60_000;

/**
 * BILLING_ANOMALY_CHANNEL as a channel id, resolved once per instance (the operator's choice:
 * billing registers itself on it when it is not yet). Unknown: a warning (once) and no channel;
 * communication off or failing: no channel this time, asked again next time.
 */
function anomalyChannel(ctx: Ctx) {
  let resolved: string | undefined;
  let warned = false;
  return async (): Promise<string | undefined> => {
    const ref = ctx.config.anomalies.channel;
    if (!ref || resolved) return resolved;
    const comm = ctx.platform.communication;
    try {
      const channel = await comm.getChannel({ path: { id: ref } });
      if (!(await registrationOf(comm, channel.id))) await registerOn(comm, channel.id);
      resolved = channel.id;
    } catch (error) {
      const unknown =
        isPlatformError(error) && error.status === 404 && /^Channel not found/.test(error.message);
      if (!unknown)
        ctx.log.warn({ err: error }, 'billing: BILLING_ANOMALY_CHANNEL cannot be resolved now');
      else if (!warned)
        ctx.log.warn(
          { channel: ref },
          `billing: BILLING_ANOMALY_CHANNEL names no communication channel (${ref}): anomalies go only to the channels of budgets`,
        );
      warned ||= unknown;
    }
    return resolved;
  };
}

export function alertRunner(ctx: Ctx) {
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let delivering: Promise<unknown> | undefined;
  let lastChange = -Infinity;
  let closed = false;
  const channel = anomalyChannel(ctx);
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };
  const windowDays = ctx.config.budgets.forecastWindowDays;
  const budgets = () =>
    serial(async () => {
      const evaluated = await evaluateBudgets(ctx.db, windowDays);
      return {
        budgets: evaluated.budgets,
        claimed: evaluated.claimed.length,
        ...(await deliverAlerts(ctx)),
      };
    });
  const anomalies = () =>
    serial(async () => {
      const found = await detectAnomalies(ctx.db, ctx.config.anomalies, ctx.config.currency);
      const to = await channel();
      const claimed = await claimAnomalyAlerts(ctx.db, found, to, ctx.config.currency);
      await recordAnomalies(ctx);
      return { anomalies: found.length, claimed, ...(await deliverAlerts(ctx)) };
    });
  const failed = (what: string) => (error: unknown) =>
    ctx.log.error({ err: error }, `billing: ${what} failed`);
  return {
    /** Evaluates the budgets and works through the outbox; what it did. */
    budgets,
    /** Detects anomalies, claims and sends their alerts. */
    anomalies,
    /**
     * Evaluates these budgets now (a budget created or changed): figures stored, alerts claimed;
     * what it claimed is sent by a run of the outbox right after, in the background.
     */
    async evaluate(rows: BudgetRow[]) {
      const { claimed } = await evaluateBudgets(ctx.db, windowDays, new Date(), rows);
      if (claimed.length > 0 && !closed && !delivering)
        delivering = serial(() => deliverAlerts(ctx))
          .catch(failed('sending alerts'))
          .finally(() => (delivering = undefined));
    },
    /**
     * Items changed in this instance: the budgets are evaluated SETTLE_MS after, and at most once
     * per CHANGE_GAP_MS (further changes meanwhile wait for that one).
     */
    spendChanged() {
      // BILLING_BUDGET_INTERVAL_MS=0: budgets are evaluated on request only.
      if (closed || timer || ctx.config.budgets.intervalMs <= 0) return;
      const wait = Math.max(SETTLE_MS, lastChange + CHANGE_GAP_MS - Date.now());
      timer = setTimeout(() => {
        timer = undefined;
        lastChange = Date.now();
        budgets().catch(failed('evaluating the budgets'));
      }, wait);
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await chain;
    },
  };
}
export type AlertRunner = ReturnType<typeof alertRunner>;
