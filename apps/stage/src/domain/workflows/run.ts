import { createHash } from 'node:crypto';
import {
  ApiError,
  badRequest,
  conflict,
  describeIdentity,
  ERROR_STATUS,
  newId,
  type ErrorCode,
  type Identity,
} from '@platform/core';
import { isUniqueViolation } from '@platform/db';
import type { AppRow } from '../../database/index.js';
import type { WorkflowRunsTable } from '../../database/workflows.js';
import { findApp } from '../../repositories/apps.js';
import { readFile } from '../../repositories/files.js';
import { findRunByKey, finishRun, insertRun, interruptStaleRuns } from '../../repositories/runs.js';
import type { StageBaseContext } from '../state.js';
import { executeStep } from './execute.js';
import { noWorkflowsFile, parseWorkflow, WORKFLOWS_FILE, type Workflow } from './definition.js';
import { MAX_INPUT_CHARS, refuseDeep, refuseNul, tooLarge } from './limits.js';
import type { RunLog } from './peers.js';

/** What starts a run: the HTTP route, and `@stage/compute` in an app backend. */
export interface RunRequest {
  /** The published app's sid (or name). */
  app: string;
  workflow: string;
  input: Record<string, unknown>;
  /** The caller: `{{ auth.email }}`, and who delegated Google tokens are asked for. */
  identity: Identity;
  /** A retried run with the same key returns the first run's result without repeating it. */
  idempotencyKey?: string;
  /** Where unexpected failures are logged (their messages are never answered nor recorded). */
  log?: RunLog;
}

/** A recorded run (GET /api/v1/stage/apps/:sid/runs/:runId), as the run route answers it. */
export interface WorkflowRun {
  id: string;
  status: 'completed' | 'failed';
  result: unknown;
  error: string | null;
  /** The error envelope's code of a failed run (its HTTP status: ERROR_STATUS[code]). */
  code: ErrorCode | null;
  appSid: string;
  workflow: string;
  /** The first run's record answered again for a repeated Idempotency-Key. */
  replayed: boolean;
}

export const MAX_IDEMPOTENCY_KEY = 200;
const KEY = /^[\x21-\x7e]+$/;

/** Key order ignored: `{ a, b }` and `{ b, a }` are the same request. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  return value;
}

const requestHash = (workflow: string, input: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(canonical({ workflow, input })))
    .digest('hex');

type RunRow = { [K in keyof WorkflowRunsTable]: unknown } & {
  id: string;
  status: string;
  error_code: string | null;
  error: string | null;
  app_sid: string;
  workflow: string;
};

const toRun = (row: RunRow, replayed: boolean): WorkflowRun => ({
  id: row.id,
  status: row.status === 'completed' ? 'completed' : 'failed',
  result: row.result ?? null,
  error: row.error,
  // INTERRUPTED (recorded for a run whose process stopped) answers as a 500.
  code:
    row.error_code === null
      ? null
      : row.error_code in ERROR_STATUS
        ? (row.error_code as ErrorCode)
        : 'INTERNAL_ERROR',
  appSid: row.app_sid,
  workflow: row.workflow,
  replayed,
});

/**
 * A repeated key: the first run's record, unless it is another request or still running (409).
 * A run `running` with no step for longer than any step takes was interrupted: marked so first.
 */
async function replay(ctx: StageBaseContext, row: RunRow, key: string, hash: string) {
  if (row.request_hash !== hash)
    throw conflict(
      `Idempotency-Key ${key} was used for another request in run ${row.id} (workflow ${row.workflow}); a key may be reused only with the same workflow and input`,
    );
  if (row.status === 'running') {
    const [stale] = await interruptStaleRuns(ctx.db, row.app_sid, interruptedAfterMs(ctx), row.id);
    if (!stale) throw conflict(`A run with Idempotency-Key ${key} is still in progress: ${row.id}`);
    return toRun(stale, true);
  }
  return toRun(row, true);
}

/** Peer calls (libs/client) time out after 30 s; communication.send makes three. */
const PEER_TIMEOUT_MS = 30_000;

/**
 * How long a run may go without recording a step before it counts as interrupted: longer than
 * any step takes (three peer calls, or a token and a Google call), and at least 5 minutes.
 */
export const interruptedAfterMs = (ctx: StageBaseContext) =>
  Math.max(
    5 * 60_000,
    3 * PEER_TIMEOUT_MS + ctx.config.workflows.googleTimeoutMs + 60_000,
    PEER_TIMEOUT_MS + ctx.config.workflows.googleTimeoutMs + 60_000,
  );

/** Whose keys a caller's are: identity kind and email or name. */
export function keyScope(identity: Identity): string {
  switch (identity.kind) {
    case 'user':
      return `user:${identity.email}`;
    case 'key':
      return `key:${identity.name}`;
    case 'service':
      return `service:${identity.name}:${identity.user ?? ''}`;
    default:
      return 'anonymous';
  }
}

/** The body's input: at most MAX_DEPTH deep and MAX_INPUT_CHARS of JSON, without U+0000. */
function checkInput(input: Record<string, unknown>) {
  refuseDeep(input, 'input');
  refuseNul(input, 'input');
  const size = JSON.stringify(input).length;
  if (size > MAX_INPUT_CHARS) throw tooLarge('field input', size, MAX_INPUT_CHARS);
}

async function loadWorkflow(ctx: StageBaseContext, app: AppRow, name: string) {
  const file = await readFile(ctx.db, app.session_id, WORKFLOWS_FILE).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') throw noWorkflowsFile(app.name);
    throw error;
  });
  return parseWorkflow(app.name, file.content, name);
}

/**
 * Runs one workflow of a published app and records it. Throws ApiErrors on what stops it from
 * starting: 404 unknown app, workflow or file, 400 a bad definition or key, 409 a key reused for
 * another request or still running. A step that fails ends the run `failed` (returned, not thrown).
 */
export async function runWorkflow(
  ctx: StageBaseContext,
  request: RunRequest,
): Promise<WorkflowRun> {
  const { db } = ctx;
  const key = request.idempotencyKey;
  if (key !== undefined && (key.length > MAX_IDEMPOTENCY_KEY || !KEY.test(key)))
    throw badRequest(`Idempotency-Key must be 1-${MAX_IDEMPOTENCY_KEY} visible ASCII characters`);
  checkInput(request.input);
  const app = await findApp(db, request.app);
  const hash = requestHash(request.workflow, request.input);
  const scopeOfKey = keyScope(request.identity);
  if (key !== undefined) {
    const first = await findRunByKey(db, app.sid, scopeOfKey, key);
    if (first) return replay(ctx, first, key, hash);
  }
  const workflow = await loadWorkflow(ctx, app, request.workflow);

  let row;
  try {
    row = await insertRun(db, {
      id: newId(12, 'run_'),
      app_sid: app.sid,
      workflow: workflow.name,
      input: request.input,
      caller: describeIdentity(request.identity),
      key_scope: scopeOfKey,
      idempotency_key: key ?? null,
      request_hash: hash,
    });
  } catch (error) {
    // A concurrent duplicate inserted first: answer as a repeat of it.
    if (key === undefined || !isUniqueViolation(error)) throw error;
    const first = await findRunByKey(db, app.sid, scopeOfKey, key);
    if (!first) throw error;
    return replay(ctx, first, key, hash);
  }
  const log = request.log ?? consoleLog;
  try {
    return await runSteps(ctx, app, workflow, row.id, request, log);
  } catch (error) {
    // Whatever went wrong (the database refusing a record, a bug), the run ends failed, with a
    // message that says nothing of it; the real one is logged.
    log.error({ err: error, runId: row.id }, 'workflow run failed unexpectedly');
    const failed = await finishRun(db, row.id, {
      status: 'failed',
      result: null,
      error_code: 'INTERNAL_ERROR',
      error: `Workflow ${workflow.name}: the run ${row.id} failed unexpectedly (the stage service logged it)`,
    });
    return toRun(failed, false);
  }
}

const consoleLog: RunLog = {
  error: (details, message) => console.error(message, details),
};

async function runSteps(
  ctx: StageBaseContext,
  app: AppRow,
  workflow: Workflow,
  runId: string,
  request: RunRequest,
  log: RunLog,
): Promise<WorkflowRun> {
  const { db } = ctx;
  const row = { id: runId };

  const scope = {
    config: app.config,
    auth: authScope(request.identity),
    input: request.input,
    app: { sid: app.sid, name: app.name },
    // No prototype: a step named like an Object.prototype property finds nothing there.
    steps: Object.create(null) as Record<string, unknown>,
  };
  let result: unknown = null;
  for (const step of workflow.steps) {
    const env = { ctx, app, identity: request.identity, runId: row.id, index: step.index, log };
    const outcome = await executeStep(env, workflow.name, step, scope);
    if (outcome.error) {
      const finished = await finishRun(db, row.id, {
        status: 'failed',
        result: null,
        error_code: outcome.error.code,
        error: outcome.error.message,
      });
      return toRun(finished, false);
    }
    if (step.as) scope.steps[step.as] = outcome.output;
    if (step.block === 'respond') result = outcome.output;
  }
  const finished = await finishRun(db, row.id, {
    status: 'completed',
    result,
    error_code: null,
    error: null,
  });
  return toRun(finished, false);
}

/** `{{ auth.* }}`: the caller's email (a person, or the one a service acts for), name and kind. */
function authScope(identity: Identity) {
  switch (identity.kind) {
    case 'user':
      return { kind: 'user', email: identity.email, name: identity.name };
    case 'service':
      return {
        kind: 'service',
        name: identity.name,
        ...(identity.user ? { email: identity.user } : {}),
      };
    case 'key':
      return { kind: 'key', name: identity.name };
    default:
      return { kind: 'anonymous' };
  }
}
