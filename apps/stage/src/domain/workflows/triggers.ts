// A workflow's `triggers`: `{ schedule: { cron, timezone } }` (croner), `{ webhook: {} }` (a
// signed URL, routes/webhooks.ts) and `{ event: "git.push", match? }` (platform events read from
// the ledger, domain/workflows/events.ts).
import { Cron } from 'croner';
import { badRequest } from '@platform/core';
import { checkExpressions } from './expressions.js';

export type Trigger =
  | { schedule: { cron: string; timezone: string } }
  | { webhook: Record<string, never> }
  | { event: string; match?: string };

/** The platform events a trigger may name (each recorded in the ledger by its service). */
export const KNOWN_EVENTS = [
  'git.push',
  'communication.delivery.failed',
  'billing.budget.alert',
  'billing.anomaly.alert',
];
export const MAX_TRIGGERS = 10;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The cron of a schedule trigger, paused (what computes its ticks); throws on a bad one. */
export const cronOf = (schedule: { cron: string; timezone: string }) =>
  new Cron(schedule.cron, { timezone: schedule.timezone, paused: true });

function validZone(zone: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function parseTriggers(workflow: string, raw: unknown): Trigger[] | undefined {
  if (raw === undefined) return undefined;
  const where = `Workflow ${workflow}: field triggers`;
  if (!Array.isArray(raw) || raw.length > MAX_TRIGGERS)
    throw badRequest(`${where} must be an array of at most ${MAX_TRIGGERS} triggers`);
  let webhooks = 0;
  return raw.map((item, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(item)) throw badRequest(`${at} must be { schedule }, { webhook } or { event }`);
    if ('schedule' in item) {
      const schedule = item.schedule;
      if (Object.keys(item).length !== 1 || !isObject(schedule))
        throw badRequest(`${at} must be { schedule: { cron, timezone } }`);
      const { cron, timezone = 'UTC' } = schedule;
      if (typeof cron !== 'string' || cron.length > 200)
        throw badRequest(`${at}.schedule.cron must be a cron expression such as "0 9 * * 1-5"`);
      if (typeof timezone !== 'string' || !validZone(timezone))
        throw badRequest(`${at}.schedule.timezone must be an IANA time zone such as Europe/Paris`);
      for (const key of Object.keys(schedule))
        if (key !== 'cron' && key !== 'timezone')
          throw badRequest(`${at}.schedule has an unknown field: ${key}`);
      try {
        cronOf({ cron, timezone }).stop();
      } catch (error) {
        throw badRequest(`${at}.schedule.cron: ${(error as Error).message}`);
      }
      return { schedule: { cron, timezone } };
    }
    if ('webhook' in item) {
      if (
        Object.keys(item).length !== 1 ||
        !isObject(item.webhook) ||
        Object.keys(item.webhook).length
      )
        // prettier-ignore
        throw badRequest(`${at} must be { webhook: {} }`);
      if (++webhooks > 1) throw badRequest(`${at}: a workflow has one webhook trigger at most`);
      return { webhook: {} };
    }
    if ('event' in item) {
      const { event, match } = item;
      if (typeof event !== 'string' || !KNOWN_EVENTS.includes(event))
        throw badRequest(`${at}.event must be one of ${KNOWN_EVENTS.join(', ')}`);
      for (const key of Object.keys(item))
        if (key !== 'event' && key !== 'match')
          throw badRequest(`${at} has an unknown field: ${key} (event, match)`);
      if (match !== undefined) {
        if (typeof match !== 'string') throw badRequest(`${at}.match must be an expression`);
        checkExpressions(match, `${at}.match`);
        return { event, match };
      }
      return { event };
    }
    throw badRequest(`${at} must be { schedule }, { webhook } or { event }`);
  });
}
