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
import type { StageDb } from '../../database/index.js';
import type { RunStatus, RunTrigger, WorkflowRunsTable } from '../../database/workflows.js';
import { findApp } from '../../repositories/apps.js';
import { readFile } from '../../repositories/files.js';
import { findRunById, findRunByKey, insertRun, interruptStaleRuns } from '../../repositories/runs.js'; // prettier-ignore
import type { StageBaseContext } from '../state.js';
import { noWorkflowsFile, parseWorkflow, WORKFLOWS_FILE, type Workflow } from './definition.js';
import { settledWithin, storedIdentity, type WorkflowEngine } from './durable.js';
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
  /** How it was started (api by default). */
  trigger?: RunTrigger;
  /** How long to wait for its end (STAGE_WORKFLOW_SYNC_MS by default); 0: not at all. */
  waitMs?: number;
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
  /** Still going (queued, running, sleeping, waiting): `state` says which; status is then completed. */
  pending: boolean;
  state: RunStatus;
}

/** Starts a run on this instance (runWorkflow with its engine): what the backends are given. */
export type StartRun = (request: RunRequest) => Promise<WorkflowRun>;

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
  status: row.status === 'failed' ? 'failed' : 'completed',
  pending: row.status !== 'completed' && row.status !== 'failed',
  state: row.status as RunStatus,
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
  if (row.status !== 'completed' && row.status !== 'failed') {
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

/** The workflows file of the app's session as it is now: its text, version, and the workflow. */
export async function loadWorkflow(ctx: StageBaseContext, app: AppRow, name: string) {
  const file = await readFile(ctx.db, app.session_id, WORKFLOWS_FILE).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') throw noWorkflowsFile(app.name);
    throw error;
  });
  const workflow: Workflow = parseWorkflow(app.name, file.content, name);
  return { workflow, content: file.content, version: file.version };
}

/**
 * Runs one workflow of a published app, durably (durable.ts), and waits for it up to
 * STAGE_WORKFLOW_SYNC_MS. Throws ApiErrors on what stops it from starting: 404 unknown app,
 * workflow or file, 400 a bad definition or key, 409 a key reused for another request or still
 * running. A step that fails ends the run `failed` (returned, not thrown); a run still going (or
 * asleep, or waiting) is returned `pending`, its status in `state`.
 */
export async function runWorkflow(
  ctx: StageBaseContext,
  engine: WorkflowEngine,
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
  const { workflow, content, version } = await loadWorkflow(ctx, app, request.workflow);
  const id = newId(12, 'run_');
  const settled = settledWithin(engine, id, request.waitMs ?? ctx.config.workflows.syncMs);
  try {
    await engine.job.start(
      { runId: id },
      {
        record: (trx) =>
          insertRun(trx as unknown as StageDb, {
            id,
            app_sid: app.sid,
            workflow: workflow.name,
            input: request.input,
            caller: describeIdentity(request.identity),
            key_scope: scopeOfKey,
            idempotency_key: key ?? null,
            request_hash: hash,
            definition: content,
            session_id: app.session_id,
            file_version: version,
            identity: storedIdentity(request.identity),
            trigger: request.trigger ?? 'api',
          }),
      },
    );
  } catch (error) {
    // A concurrent duplicate inserted first: answer as a repeat of it.
    if (key === undefined || !isUniqueViolation(error)) throw error;
    const first = await findRunByKey(db, app.sid, scopeOfKey, key);
    if (!first) throw error;
    return replay(ctx, first, key, hash);
  }
  await settled;
  return toRun((await findRunById(db, id))!, false);
}
