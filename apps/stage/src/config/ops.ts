import { declareVariables, Var, type Env } from '@platform/core';

const MIB = 1024 * 1024;

// What app backends may do besides answering (issue 32, item 5): fetch, console logs, secrets,
// schedules. Part of backendConfig (config.backends).

const VARIABLES = declareVariables({
  STAGE_BACKEND_FETCH_ALLOW: Var.list({
    lower: true,
    accepts: 'comma-separated `host` or `host:port` (IPv6 in brackets)',
    check: (entries) => {
      const bad = entries.find((entry) => !/^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:\d{1,5})?$/.test(entry)); // prettier-ignore
      return bad && `has "${bad}", not a host or host:port`;
    },
    description:
      "Hosts an app backend's `fetch` may reach although they resolve to a loopback, private or link-local address (all others such are refused)",
  }),
  STAGE_BACKEND_FETCH_TIMEOUT_MS: Var.int({
    default: 10_000,
    min: 50,
    max: 600_000,
    unit: 'ms',
    description:
      'Time one `fetch` of an app backend may take in all, redirects and body included; beyond it the fetch throws a TypeError',
  }),
  STAGE_BACKEND_FETCH_MAX_BYTES: Var.int({
    default: 4 * MIB,
    min: 1,
    max: 64 * MIB,
    unit: 'bytes',
    description:
      'Largest answer body one `fetch` of an app backend reads; a larger one throws a TypeError',
  }),
  STAGE_BACKEND_LOG_KEEP: Var.int({
    default: 1000,
    min: 0,
    max: 1_000_000,
    description: "`console.*` lines of an app's backend kept, the newest (`0` keeps none)",
  }),
  STAGE_BACKEND_LOG_LINE_BYTES: Var.int({
    default: 4096,
    min: 64,
    max: MIB,
    unit: 'bytes',
    description: 'Longest `console.*` line kept, in bytes of UTF-8; a longer one is cut',
  }),
  STAGE_BACKEND_LOG_LINES_PER_REQUEST: Var.int({
    default: 200,
    min: 1,
    max: 100_000,
    description:
      '`console.*` lines kept of one backend request or scheduled run (the first ones; a last line tells how many more were dropped)',
  }),
  STAGE_BACKEND_LOG_FOLLOW_MAX_MS: Var.int({
    default: 900_000,
    min: 100,
    max: 86_400_000,
    unit: 'ms',
    description:
      "How long one live stream of an app's logs (`GET .../logs/stream`) stays open before its end event",
  }),
  STAGE_BACKEND_SECRET_MAX_BYTES: Var.int({
    default: 8192,
    min: 16,
    max: MIB,
    unit: 'bytes',
    description: 'Largest value of one app secret, in bytes of UTF-8; 413 beyond',
  }),
  STAGE_BACKEND_SECRETS_MAX: Var.int({
    default: 100,
    min: 1,
    max: 10_000,
    description: 'Secrets one app may keep',
  }),
  STAGE_SCHEDULE_TICK_MS: Var.int({
    default: 1000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    description:
      'How often the sandbox looks for due app schedules (the finest a schedule fires); `0` turns schedules off',
  }),
  STAGE_SCHEDULES_MAX: Var.int({
    default: 20,
    min: 1,
    max: 1000,
    description: 'Schedules one app may declare in `config.schedules`',
  }),
  STAGE_SCHEDULE_RUNS_KEEP: Var.int({
    default: 50,
    min: 1,
    max: 10_000,
    description: 'Runs kept per schedule of an app, the newest',
  }),
});

export const OPS_VARIABLES = VARIABLES.variables;

export function opsConfig(env: Env) {
  const values = VARIABLES.read(env);
  return {
    /** `host` or `host:port` entries, lower case; IPv6 in brackets (`[::1]:8080`). */
    fetchAllow: values.STAGE_BACKEND_FETCH_ALLOW,
    fetchTimeoutMs: values.STAGE_BACKEND_FETCH_TIMEOUT_MS,
    fetchMaxBytes: values.STAGE_BACKEND_FETCH_MAX_BYTES,
    logKeep: values.STAGE_BACKEND_LOG_KEEP,
    logLineBytes: values.STAGE_BACKEND_LOG_LINE_BYTES,
    logLinesPerRequest: values.STAGE_BACKEND_LOG_LINES_PER_REQUEST,
    logFollowMaxMs: values.STAGE_BACKEND_LOG_FOLLOW_MAX_MS,
    secretMaxBytes: values.STAGE_BACKEND_SECRET_MAX_BYTES,
    secretsMax: values.STAGE_BACKEND_SECRETS_MAX,
    scheduleTickMs: values.STAGE_SCHEDULE_TICK_MS,
    schedulesMax: values.STAGE_SCHEDULES_MAX,
    scheduleRunsKeep: values.STAGE_SCHEDULE_RUNS_KEEP,
  };
}

export type OpsConfig = ReturnType<typeof opsConfig>;
