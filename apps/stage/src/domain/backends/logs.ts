import type { FastifyBaseLogger } from 'fastify';
import type { LogSource } from '../../database/backends.js';
import { insertLogs } from '../../repositories/logs.js';
import type { StageBaseContext } from '../state.js';
import type { LogLine } from './protocol.js';
import { openSecrets, redactor } from './secrets.js';
import type { BackendJob, BackendRuntime, RuntimeOutcome } from './supervisor.js';

/** Whose lines they are: the request (or scheduled run) they belong to. */
export interface LogMeta {
  requestId: string;
  source: LogSource;
  schedule?: string;
}

/**
 * Wakes the live streams of an app's logs (routes/logs.ts) when this instance stores lines of it;
 * lines another instance stores are found by the streams' polling. One per instance (its state).
 */
export class LogFeed {
  private waiting = new Map<string, Set<() => void>>();

  wake(sid: string) {
    const waiters = this.waiting.get(sid);
    this.waiting.delete(sid);
    for (const wake of waiters ?? []) wake();
  }

  /** Resolves at the next wake of `sid`, after `ms`, or when `signal` aborts, whichever is first. */
  wait(sid: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiting.get(sid)?.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      let waiters = this.waiting.get(sid);
      if (!waiters) this.waiting.set(sid, (waiters = new Set()));
      waiters.add(done);
    });
  }
}

/** What a backend's request needs of the instance's state: the secrets' key, the log feed. */
export interface LogParts {
  secretKey: Buffer | null;
  logs: LogFeed;
}

/** Stores an app's console lines (STAGE_BACKEND_LOG_KEEP), secrets redacted, and wakes streams. */
export async function keepLogs(
  ctx: StageBaseContext,
  feed: LogFeed,
  sid: string,
  lines: readonly LogLine[],
  meta: LogMeta,
  redact: (text: string) => string,
) {
  const { logKeep } = ctx.config.backends;
  if (lines.length === 0 || logKeep === 0) return;
  const rows = lines.map((line) => ({
    app_sid: sid,
    logged_at: new Date(line.at),
    level: line.level,
    message: redact(line.message),
    request_id: line.own ? meta.requestId : null,
    source: meta.source,
    schedule: meta.schedule ?? null,
  }));
  await insertLogs(ctx.db, sid, rows, logKeep);
  feed.wake(sid);
}

/**
 * One request of an app's backend, as every route and schedule makes it: the app's secrets in
 * its env (env.NAME), its console lines kept (with a last line saying why, when it failed), and
 * secret values redacted from what the platform tells of a failure.
 */
export async function runBackend(
  ctx: StageBaseContext,
  parts: LogParts,
  runtime: BackendRuntime,
  job: BackendJob,
  meta: LogMeta,
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
): Promise<RuntimeOutcome> {
  const secrets = await openSecrets(ctx.db, parts.secretKey, job.sid, log);
  let outcome = await runtime.fetch({ ...job, env: { ...job.env, secrets } });
  const redact = redactor(secrets);
  const lines = [...(outcome.logs ?? [])];
  if (!outcome.ok) {
    const failure = { ...outcome.failure, message: redact(outcome.failure.message) };
    const message = `The request failed (${failure.kind}): ${failure.message}`;
    lines.push({ at: Date.now(), level: 'error', message, own: true });
    outcome = { ok: false, failure, logs: outcome.logs };
  }
  await keepLogs(ctx, parts.logs, job.sid, lines, meta, redact).catch((error: unknown) =>
    log.error({ err: error, app: job.sid }, 'stage backend: console lines not kept'),
  );
  return outcome;
}
