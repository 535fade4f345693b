import { Cron } from 'croner';
import { badRequest } from '@platform/core';
import type { OpsConfig } from '../../config/ops.js';

// An app's schedules, from its config (PATCH /api/v1/stage/apps/:sid): config.schedules is an
// object of schedules by name, each a cron expression and what it runs, a route of the backend
// or a workflow:
//   "schedules": {
//     "nightly": { "cron": "0 3 * * *", "route": "/tasks/cleanup", "method": "POST", "body": {} },
//     "digest": { "cron": "*/15 * * * *", "workflow": "send-digest", "input": {}, "timezone": "Europe/Paris" }
//   }
// Cron expressions are parsed by croner: five fields, or six with seconds first; @hourly,
// @daily and the like; in UTC unless `timezone` (an IANA name) says otherwise.

export const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const FIELDS = ['cron', 'timezone', 'route', 'method', 'body', 'workflow', 'input'];
const MAX_BODY_CHARS = 64 * 1024;

/** A schedule as checked and stored (app_schedules.definition). */
export interface ScheduleDefinition {
  cron: string;
  timezone: string | null;
  /** A route of the backend (the path as it sees it), with its method and JSON body... */
  route?: string;
  method?: string;
  body?: unknown;
  /** ...or a workflow of /app/platform.workflows.json, with its input. */
  workflow?: string;
  input?: Record<string, unknown>;
}

export interface Schedule {
  name: string;
  definition: ScheduleDefinition;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The next tick of a schedule strictly after `from`; null when there is none. */
export function nextTick(definition: ScheduleDefinition, from: Date): Date | null {
  const cron = new Cron(definition.cron, { paused: true, timezone: definition.timezone ?? 'UTC' });
  return cron.nextRun(from);
}

function checkOne(name: string, value: unknown): ScheduleDefinition {
  const at = `config.schedules.${name}`;
  if (!SCHEDULE_NAME.test(name))
    throw badRequest(`config.schedules: the name "${name.slice(0, 80)}" must be 1-64 letters, digits, _ . or - (starting with a letter or digit)`); // prettier-ignore
  if (!isObject(value))
    throw badRequest(`${at} must be an object such as { "cron": "0 3 * * *", "route": "/cleanup" }`); // prettier-ignore
  const unknown = Object.keys(value).find((k) => !FIELDS.includes(k));
  if (unknown) throw badRequest(`${at}.${unknown} is not a field of a schedule (${FIELDS.join(', ')})`); // prettier-ignore
  const { cron, timezone = null, route, method = 'POST', body, workflow, input = {} } = value;
  if (typeof cron !== 'string' || cron.length > 200)
    throw badRequest(`${at}.cron must be a cron expression, e.g. "*/5 * * * *"`);
  if (timezone !== null && (typeof timezone !== 'string' || timezone.length > 100))
    throw badRequest(`${at}.timezone must be an IANA time zone name, e.g. "Europe/Paris"`);
  const definition: ScheduleDefinition = { cron, timezone };
  try {
    if (timezone !== null) new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw badRequest(`${at}.timezone: "${timezone}" is not an IANA time zone name`);
  }
  let next: Date | null;
  try {
    next = nextTick(definition, new Date());
  } catch (error) {
    throw badRequest(`${at}.cron: "${cron}" is not a valid cron expression (${(error as Error).message})`); // prettier-ignore
  }
  if (next === null) throw badRequest(`${at}.cron: "${cron}" never runs`);
  if ((route === undefined) === (workflow === undefined))
    throw badRequest(`${at} must name either a route of the backend ("route": "/path") or a workflow ("workflow": "name")`); // prettier-ignore
  if (route !== undefined) {
    if (typeof route !== 'string' || !route.startsWith('/') || route.length > 2000 || /[#\s]/.test(route)) // prettier-ignore
      throw badRequest(`${at}.route must be a path of the backend starting with /, e.g. "/tasks/cleanup"`); // prettier-ignore
    if (typeof method !== 'string' || !METHODS.includes(method.toUpperCase()))
      throw badRequest(`${at}.method must be one of ${METHODS.join(', ')}`);
    const upper = method.toUpperCase();
    if (body !== undefined && upper === 'GET') throw badRequest(`${at}.body: a GET has no body`);
    if (body !== undefined && JSON.stringify(body).length > MAX_BODY_CHARS)
      throw badRequest(`${at}.body is over ${MAX_BODY_CHARS} characters of JSON`);
    return { ...definition, route, method: upper, ...(body === undefined ? {} : { body }) };
  }
  if (typeof workflow !== 'string' || workflow === '' || workflow.length > 100)
    throw badRequest(`${at}.workflow must name a workflow of /app/platform.workflows.json`);
  if (!isObject(input)) throw badRequest(`${at}.input must be an object`);
  return { ...definition, workflow, input };
}

/**
 * The schedules of an app's config (none without config.schedules), checked: 400 naming the
 * schedule and field, an invalid cron expression quoted; at most STAGE_SCHEDULES_MAX.
 */
export function parseSchedules(config: Record<string, unknown>, limits: OpsConfig): Schedule[] {
  const schedules = config.schedules;
  if (schedules === undefined || schedules === null) return [];
  if (!isObject(schedules))
    throw badRequest('config.schedules must be an object of schedules by name, e.g. { "nightly": { "cron": "0 3 * * *", "route": "/cleanup" } }'); // prettier-ignore
  const names = Object.keys(schedules);
  if (names.length > limits.schedulesMax)
    throw badRequest(`config.schedules has ${names.length} schedules, over ${limits.schedulesMax} (STAGE_SCHEDULES_MAX)`); // prettier-ignore
  return names.map((name) => ({ name, definition: checkOne(name, schedules[name]) }));
}

/**
 * The schedules a config given to POST or PATCH /apps sets, each with its next tick (checked
 * before the app is written); undefined when no config is given (the schedules stay).
 */
export function schedulesOf(config: Record<string, unknown> | undefined, limits: OpsConfig) {
  if (config === undefined) return undefined;
  const now = new Date();
  return parseSchedules(config, limits).map((s) => ({ ...s, next: nextTick(s.definition, now)! }));
}
