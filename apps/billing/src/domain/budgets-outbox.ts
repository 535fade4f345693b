import { ANONYMOUS, isPlatformError, newId, type ServiceContext } from '@platform/core';
import type { BillingConfig } from '../config.js';
import type { AlertRow, BillingDatabase } from '../database.js';
import {
  markRecorded,
  markRecordStarted,
  serviceNames,
  unrecordedAnomalies,
} from '../repositories/anomalies.js';
import {
  dbNow,
  expireAlerts,
  finishAlert,
  leaseAlerts,
  markAlertRecording,
  renewLease,
} from '../repositories/budgets-alerts.js';
import { anomalyDetails } from './anomalies.js';

// The alerts' outbox: each claimed alert is sent through communication as the platform app
// `billing`, on a channel billing is registered on (an admin's decision: see domain/budgets-checks),
// with an Idempotency-Key made of its claim (so a crash between communication's 202 and the row
// marked sent sends nothing twice: the next attempt is answered with the first delivery), and a
// budget's is recorded in the ledger (`billing.budget.alert`; an anomaly's `billing.anomaly.alert`
// once per anomaly). What cannot be sent (channel gone or disabled, billing not registered or its
// registration disabled, communication off or failing) stays pending with the reason in `error`
// and is tried again after BILLING_ALERT_RETRY_MS, doubling with each failure in a row (6 h at
// most), so alerts that keep failing never hold back newer ones; nothing throws past a row.
// An alert no longer current expires unsent: a budget's a day after its period, an anomaly's once
// the anomaly is no longer open.

/** The communication app billing sends as. */
export const ALERT_APP = 'billing';
/**
 * How long an instance holds an alert: renewed just before the alert's work, which is at most four
 * calls of at most 30 s each (the platform client's timeout).
 */
const LEASE_MS = 180_000;

export type Ctx = Pick<
  ServiceContext<BillingDatabase, BillingConfig>,
  'db' | 'config' | 'platform' | 'platformFor' | 'log'
>;
type Communication = ServiceContext['platform']['communication'];

/** A peer's failure, in words for the alert's `error`. */
export function reason(service: string, error: unknown) {
  if (isPlatformError(error))
    return `${service} answered ${error.status} ${error.code}: ${error.message}`;
  return `${service} cannot be reached: ${(error as Error).message}`;
}

/** The Idempotency-Key of an alert: its claim, in visible ASCII. */
export const idempotencyKey = (alert: Pick<AlertRow, 'key'>) =>
  `billing-${alert.key.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c))}`.slice(0, 255);

/** Billing's registration on a channel (by id), if any. */
export async function registrationOf(comm: Communication, channelId: string) {
  const path = { appId: ALERT_APP };
  const found = await comm.listRegistrations({ path, query: { channelId } });
  return found.find((r) => r.channelId === channelId);
}

/** Registers billing on a channel (what only an admin's request, or the operator's variable, does). */
export async function registerOn(comm: Communication, channelId: string) {
  return comm
    .createRegistration({ path: { appId: ALERT_APP }, body: { channelId } })
    .catch(async (error: unknown) => {
      // Registered meanwhile (another request or instance).
      if (isPlatformError(error) && error.status === 409) return registrationOf(comm, channelId);
      throw error;
    });
}

type Sent = { sent: { deliveryId: string | null }; error?: string } | { error: string };

/** Sends one alert: channel and billing's registration on it checked, then the message. */
async function send(ctx: Ctx, alert: AlertRow): Promise<Sent> {
  const comm = ctx.platform.communication;
  let channel;
  try {
    channel = await comm.getChannel({ path: { id: alert.channel } });
  } catch (error) {
    // Any other 404 is communication switched off: its routes answer as absent ones.
    if (isPlatformError(error) && error.status === 404 && /^Channel not found/.test(error.message))
      return { error: `Channel not found: ${alert.channel} (communication)` };
    return { error: reason('communication', error) };
  }
  const named = `channel ${channel.name} (${channel.id})`;
  if (channel.status !== 'active') return { error: `The ${named} is ${channel.status}` };
  try {
    const registration = await registrationOf(comm, channel.id);
    if (!registration)
      return {
        error: `The app ${ALERT_APP} is not registered on ${named}: an admin registers it (POST /api/v1/communication/apps/${ALERT_APP}/channels)`,
      };
    if (!registration.enabled)
      return {
        error: `The registration ${registration.id} of app ${ALERT_APP} on ${named} is disabled`,
      };
  } catch (error) {
    return { error: reason('communication', error) };
  }
  try {
    const client = ctx.platformFor(ANONYMOUS, { 'idempotency-key': idempotencyKey(alert) });
    const { delivery } = await client.communication.send({
      path: { appId: ALERT_APP },
      body: {
        channelId: channel.id,
        subject: alert.subject,
        text: alert.text,
        metadata: alert.details,
      },
    });
    return { sent: { deliveryId: delivery?.id ?? null } };
  } catch (error) {
    // The key was used with another request (the channel changed after an accepted attempt):
    // that attempt's delivery stands.
    if (isPlatformError(error) && error.status === 409)
      return { sent: { deliveryId: null }, error: reason('communication', error) };
    return { error: reason('communication', error) };
  }
}

/** An event for the ledger; `alertId`: the event is the one whose details carry it. */
interface Entry {
  action: string;
  resource: string;
  details: Record<string, unknown>;
  at: Date;
  alertId?: string;
}

/**
 * Appends an event to the ledger, once: when an earlier attempt began (`started`) and may have
 * reached it before a crash, the ledger is asked first (the ledger's POST /events takes no client
 * id to deduplicate by). `ok`; else `down` when the ledger did not answer (or is off).
 */
async function record(ctx: Ctx, entry: Entry, started: boolean) {
  const { action, resource, details } = entry;
  const ledger = ctx.platform.ledger;
  try {
    const timestamp = new Date(entry.at).toISOString();
    if (started) {
      const query = { action, resource, from: timestamp, limit: 100 };
      const events = await ledger.listEvents({ query });
      const alertId = entry.alertId;
      if (events.some((e) => alertId === undefined || e.details.alertId === alertId))
        return { ok: true };
    }
    await ledger.createEvent({
      body: { action, resource, service: 'billing', details: { ...details }, timestamp },
    });
    return { ok: true };
  } catch (error) {
    ctx.log.warn({ err: error, action, resource }, 'billing: alert not recorded in the ledger yet');
    const answered = isPlatformError(error) && error.status !== 404 && error.status < 500;
    return { ok: false, down: !answered };
  }
}

/** Records a budget alert in the ledger (the start of the attempt marked first); whether it is. */
async function recordAlert(ctx: Ctx, alert: AlertRow) {
  const started = alert.record_started_at !== null;
  if (!started) await markAlertRecording(ctx.db, alert.id, false);
  const entry = {
    action: 'billing.budget.alert',
    resource: `billing.budget:${alert.budget_id}`,
    details: alert.details,
    at: alert.created_at,
    alertId: alert.id,
  };
  const { ok } = await record(ctx, entry, started);
  if (ok) await markAlertRecording(ctx.db, alert.id, true);
  return ok;
}

type Done = { sent: number; pending: number; recorded: number; expired: number };

/** One leased alert: recorded (a budget's), then sent (when pending); its outcome stored. */
async function workOn(ctx: Ctx, alert: AlertRow, lease: string, done: Done) {
  const retryMs = ctx.config.budgets.retryMs;
  const unrecorded = alert.budget_id !== null && alert.recorded_at === null;
  const recorded = unrecorded && (await recordAlert(ctx, alert));
  if (recorded) done.recorded++;
  const recordFailed = unrecorded && !recorded;
  if (alert.status !== 'pending') {
    await finishAlert(ctx.db, alert.id, lease, { attempted: false, failed: recordFailed, retryMs });
    return;
  }
  const outcome = await send(ctx, alert);
  if ('sent' in outcome) done.sent++;
  else {
    done.pending++;
    ctx.log.warn({ alert: alert.key, error: outcome.error }, 'billing: alert not sent yet');
  }
  const failed = !('sent' in outcome) || recordFailed;
  await finishAlert(ctx.db, alert.id, lease, { attempted: true, failed, retryMs, ...outcome });
}

/**
 * Works through the outbox once: alerts no longer current expired; then the alerts to send, then
 * the budget alerts only to record, each kind leased `batch` at a time, oldest first, each alert
 * held by this instance (its lease renewed just before its work). An alert that fails waits for
 * its retry time, so it is tried at most once a run and never holds back the others.
 */
export async function deliverAlerts(ctx: Ctx, batch = 10) {
  const done: Done = { sent: 0, pending: 0, recorded: 0, expired: await expireAlerts(ctx.db) };
  const due = await dbNow(ctx.db);
  const lease = newId(16);
  for (const work of ['send', 'record'] as const)
    for (;;) {
      const options = { lease, leaseMs: LEASE_MS, limit: batch, due };
      const leased = await leaseAlerts(ctx.db, work, options);
      for (const alert of leased)
        if (await renewLease(ctx.db, alert.id, lease, LEASE_MS))
          await workOn(ctx, alert, lease, done);
      if (leased.length < batch) break;
    }
  return done;
}

/**
 * Records each anomaly not yet in the ledger as billing.anomaly.alert, all of them in one pass (an
 * event the ledger refuses does not hold back the rest); stops when the ledger is down.
 */
export async function recordAnomalies(ctx: Ctx) {
  let after: string | undefined;
  for (;;) {
    const anomalies = await unrecordedAnomalies(ctx.db, after);
    if (anomalies.length === 0) return;
    const services = anomalies.filter((a) => a.scope === 'service').map((a) => a.key);
    const names = await serviceNames(ctx.db, services);
    for (const anomaly of anomalies) {
      const started = anomaly.record_started_at !== null;
      if (!started) await markRecordStarted(ctx.db, anomaly.id);
      const details = anomalyDetails(anomaly, names, ctx.config.currency);
      const resource = `billing.anomaly:${anomaly.id}`;
      const entry = { action: 'billing.anomaly.alert', resource, details, at: anomaly.created_at };
      const outcome = await record(ctx, entry, started);
      if (outcome.ok) await markRecorded(ctx.db, anomaly.id);
      else if (outcome.down) return;
    }
    after = anomalies[anomalies.length - 1].id;
  }
}
