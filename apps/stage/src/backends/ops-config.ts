import { ConfigError, envInt, envString, type Env, type Variable } from '@platform/core';

const MIB = 1024 * 1024;

// What app backends may do besides answering (issue 32, item 5): fetch, console logs, secrets,
// schedules. Part of backendConfig (config.backends).

export const OPS_VARIABLES: readonly Variable[] = [
  {
    name: 'STAGE_BACKEND_FETCH_ALLOW',
    default: '',
    description:
      'Comma-separated host names or host:port an app backend may fetch even though they resolve to a loopback, private or link-local address (all others such are refused)',
  },
  {
    name: 'STAGE_BACKEND_FETCH_TIMEOUT_MS',
    default: '10000',
    description:
      'Time one fetch of an app backend may take in all (redirects and the body included), in ms; beyond it the fetch throws a TypeError',
  },
  {
    name: 'STAGE_BACKEND_FETCH_MAX_BYTES',
    default: '4194304',
    description:
      'Largest response body one fetch of an app backend may read, in bytes; a larger one throws a TypeError',
  },
  {
    name: 'STAGE_BACKEND_LOG_KEEP',
    default: '1000',
    description: "console.* lines of an app's backend kept (the newest); 0 keeps none",
  },
  {
    name: 'STAGE_BACKEND_LOG_LINE_BYTES',
    default: '4096',
    description: 'Longest console.* line kept, in bytes of UTF-8 (a longer one is cut)',
  },
  {
    name: 'STAGE_BACKEND_LOG_LINES_PER_REQUEST',
    default: '200',
    description:
      'console.* lines kept of one backend request or scheduled run (the first ones; a last line tells how many more were dropped)',
  },
  {
    name: 'STAGE_BACKEND_LOG_FOLLOW_MAX_MS',
    default: '900000',
    description:
      "How long one live stream of an app's logs (GET .../logs/stream) stays open before its end event, in ms",
  },
  {
    name: 'STAGE_BACKEND_SECRET_MAX_BYTES',
    default: '8192',
    description: 'Largest value of one app secret, in bytes of UTF-8 (a larger one is 413)',
  },
  {
    name: 'STAGE_BACKEND_SECRETS_MAX',
    default: '100',
    description: 'Secrets one app may keep',
  },
  {
    name: 'STAGE_SCHEDULE_TICK_MS',
    default: '1000',
    description:
      'How often the service looks for due app schedules, in ms (the finest a schedule fires); 0 turns schedules off',
  },
  {
    name: 'STAGE_SCHEDULES_MAX',
    default: '20',
    description: 'Schedules one app may declare in config.schedules',
  },
  {
    name: 'STAGE_SCHEDULE_RUNS_KEEP',
    default: '50',
    description: 'Runs kept per schedule of an app (the newest)',
  },
];

/** `host` or `host:port` entries, lower case; IPv6 in brackets (`[::1]:8080`). */
function allowList(env: Env): string[] {
  const raw = envString(env, 'STAGE_BACKEND_FETCH_ALLOW') ?? '';
  return raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '')
    .map((entry) => {
      if (!/^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(:\d{1,5})?$/.test(entry))
        throw new ConfigError(
          'STAGE_BACKEND_FETCH_ALLOW',
          `has "${entry}", not a host or host:port`,
        );
      return entry;
    });
}

export function opsConfig(env: Env) {
  return {
    fetchAllow: allowList(env),
    fetchTimeoutMs: envInt(env, 'STAGE_BACKEND_FETCH_TIMEOUT_MS', 10_000, { min: 50, max: 600_000 }), // prettier-ignore
    fetchMaxBytes: envInt(env, 'STAGE_BACKEND_FETCH_MAX_BYTES', 4 * MIB, { min: 1, max: 64 * MIB }),
    logKeep: envInt(env, 'STAGE_BACKEND_LOG_KEEP', 1000, { min: 0, max: 1_000_000 }),
    logLineBytes: envInt(env, 'STAGE_BACKEND_LOG_LINE_BYTES', 4096, { min: 64, max: MIB }),
    logLinesPerRequest: envInt(env, 'STAGE_BACKEND_LOG_LINES_PER_REQUEST', 200, { min: 1, max: 100_000 }), // prettier-ignore
    logFollowMaxMs: envInt(env, 'STAGE_BACKEND_LOG_FOLLOW_MAX_MS', 900_000, { min: 1000, max: 86_400_000 }), // prettier-ignore
    secretMaxBytes: envInt(env, 'STAGE_BACKEND_SECRET_MAX_BYTES', 8192, { min: 16, max: MIB }),
    secretsMax: envInt(env, 'STAGE_BACKEND_SECRETS_MAX', 100, { min: 1, max: 10_000 }),
    scheduleTickMs: envInt(env, 'STAGE_SCHEDULE_TICK_MS', 1000, { min: 0, max: 3_600_000 }),
    schedulesMax: envInt(env, 'STAGE_SCHEDULES_MAX', 20, { min: 1, max: 1000 }),
    scheduleRunsKeep: envInt(env, 'STAGE_SCHEDULE_RUNS_KEEP', 50, { min: 1, max: 10_000 }),
  };
}

export type OpsConfig = ReturnType<typeof opsConfig>;
