// The interpreter of a durable run (issue 40): walks the workflow's steps, each identified by its
// path (steps[2], steps[3].then[0], steps[4].forEach[7][1], steps[5].parallel[1][0]). A step
// recorded done is not run again: its recorded output is read back, so a run resumed after a
// crash (another job run, another instance) continues where it was. Control decisions (a branch
// taken, a loop's items, a sleep's end) are recorded too, so a resumed run takes the same way.
import { ApiError, type Identity } from '@platform/core';
import type { Selectable } from '@platform/db';
import type { AppRow, StageDb } from '../../database/index.js';
import type { WorkflowRunStepsTable } from '../../database/workflows.js';
import { endStep, startStep, type StepEnd, type StepStart } from '../../repositories/run-steps.js';
import type { StageBaseContext } from '../state.js';
import { isBlock, stepLabel, type Node, type Step } from './definition.js';
import { callBlock, prepareInput, recordedOutput, stepError } from './execute.js';
import { evaluateAll, truthy } from './expressions.js';
import { durationMs, MAX_WAIT_MS, type ControlNode } from './nodes.js';
import type { RunLog } from './peers.js';
import type { Scope } from './template.js';
import type { WorkflowEngine } from './durable.js';

type StepRow = Selectable<WorkflowRunStepsTable>;

/** A step failed for good: the run ends failed with this error. */
export class StepFailed extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}
/** A `return` step: the run ends completed with this result. */
export class Returned extends Error {
  constructor(readonly value: unknown) {
    super('returned');
  }
}
/** A sleep or a wait: the run is parked until `wakeAt` (or an approval, an event). */
export class Parked extends Error {
  constructor(
    readonly status: 'sleeping' | 'waiting',
    readonly wakeAt: Date,
  ) {
    super('parked');
  }
}

/** Error codes of failures worth another attempt (a step's `retry`). */
const TRANSIENT = new Set(['BAD_GATEWAY', 'SERVICE_UNAVAILABLE', 'GATEWAY_TIMEOUT', 'REQUEST_TIMEOUT', 'RATE_LIMITED', 'INTERNAL_ERROR']); // prettier-ignore

export interface RunEnv {
  ctx: StageBaseContext;
  /** The instance's workflow engine (its state's): what the blocks run with. */
  engine: WorkflowEngine;
  app: AppRow;
  identity: Identity;
  runId: string;
  workflow: string;
  log: RunLog;
  /** What the run recorded so far, by path. */
  records: Map<string, StepRow>;
  /** Writes in a transaction fenced by the run's job: nothing is written by a run that lost it. */
  write(fn: (db: StageDb) => Promise<unknown>): Promise<void>;
  /** Step executions left (the run-length limit). */
  budget: { left: number; max: number; maxItems: number };
  /** The payload of the last respond step. */
  result: { value: unknown };
  /** Called after each step's record is written (live run pages). */
  onStep?(): void;
}

const elapsed = (since: number) => Math.round(performance.now() - since);

async function record(env: RunEnv, start: StepStart, end?: StepEnd) {
  await env.write(async (db) => {
    await startStep(db, env.runId, start);
    if (end) await endStep(db, env.runId, start.path, end);
  });
  env.onStep?.();
}

function spend(env: RunEnv, path: string) {
  if (--env.budget.left < 0)
    throw new StepFailed(new ApiError('PAYLOAD_TOO_LARGE', `Workflow ${env.workflow}, ${path}: the run made more than ${env.budget.max} steps (STAGE_WORKFLOW_MAX_RUN_STEPS)`)); // prettier-ignore
}

/** Runs a list of steps at `<path>[i]`; answers the output of the last one. */
export async function runNodes(env: RunEnv, nodes: Node[], path: string, scope: Scope) {
  let last: unknown = null;
  for (const [i, node] of nodes.entries()) last = await runNode(env, node, `${path}[${i}]`, scope);
  return last;
}

async function runNode(env: RunEnv, node: Node, path: string, scope: Scope): Promise<unknown> {
  const output = isBlock(node) ? await runBlock(env, node, path, scope) : await runControl(env, node, path, scope); // prettier-ignore
  if (node.as) (scope.steps as Record<string, unknown>)[node.as] = output;
  return output;
}

async function runBlock(env: RunEnv, step: Step, path: string, scope: Scope): Promise<unknown> {
  const done = env.records.get(path);
  if (done?.status === 'completed') {
    const output = done.value ?? done.output;
    if (step.block === 'respond') env.result.value = output;
    return output;
  }
  const label = `Workflow ${env.workflow}, ${stepLabel(step, path)}`;
  const base = { ctx: env.ctx, engine: env.engine, app: env.app, identity: env.identity, runId: env.runId, index: step.index, log: env.log }; // prettier-ignore
  const row = { path, index: step.index, block: step.block, as: step.as };
  // An attempt under way when the run stopped is made again with the same key.
  let attempt = done?.status === 'running' ? done.attempts : (done?.attempts ?? 0) + 1;
  const attempts = Math.max(step.retry?.attempts ?? 1, attempt);
  for (;;) {
    spend(env, path);
    const started = performance.now();
    const blockEnv = { ...base, key: `${env.runId}:${path}:${attempt}`, legacyKey: path === `steps[${step.index}]` && attempt === 1 }; // prettier-ignore
    let input: unknown = null;
    try {
      input = prepareInput(blockEnv, step, scope);
    } catch (error) {
      const failure = stepError(blockEnv, label, error);
      await record(env, { ...row, input: null, attempts: attempt }, { status: 'failed', output: null, error: failure.message, durationMs: elapsed(started) }); // prettier-ignore
      throw new StepFailed(failure);
    }
    await record(env, { ...row, input, attempts: attempt });
    try {
      const output = await callBlock(blockEnv, step, input);
      const kept = recordedOutput(step.block, output);
      await record(env, { ...row, input, attempts: attempt }, { status: 'completed', output: kept, value: kept === output ? undefined : output, error: null, durationMs: elapsed(started) }); // prettier-ignore
      if (step.block === 'respond') env.result.value = output;
      return output;
    } catch (error) {
      const failure = stepError(blockEnv, label, error);
      const again = attempt < attempts && TRANSIENT.has(failure.code);
      await env.write((db) => endStep(db, env.runId, path, { status: again ? 'running' : 'failed', output: null, error: failure.message, durationMs: elapsed(started) })); // prettier-ignore
      env.onStep?.();
      if (!again) throw new StepFailed(failure);
      await new Promise((resolve) => setTimeout(resolve, Math.min(step.retry!.backoffMs * 2 ** (attempt - 1), 300_000))); // prettier-ignore
      attempt += 1;
    }
  }
}

/** A control step's decision, recorded once: read back when the run resumes. */
async function decided<T>(
  env: RunEnv,
  node: ControlNode,
  path: string,
  decide: () => Promise<{ input: unknown; value: T; output: unknown }>,
): Promise<T> {
  const done = env.records.get(path);
  if (done?.status === 'completed') return done.value as T;
  spend(env, path);
  const started = performance.now();
  const row = { path, index: node.index, block: node.kind, as: node.as, attempts: 1 };
  let made;
  try {
    made = await decide();
  } catch (error) {
    if (error instanceof StepFailed || error instanceof Returned) throw error;
    const failure = new ApiError(error instanceof ApiError ? error.code : 'BAD_REQUEST', error instanceof ApiError ? error.message : `Workflow ${env.workflow}, ${path} (${node.kind}): ${(error as Error).message}`); // prettier-ignore
    await record(env, { ...row, input: null }, { status: 'failed', output: null, error: failure.message, durationMs: elapsed(started) }); // prettier-ignore
    throw new StepFailed(failure);
  }
  await record(env, { ...row, input: made.input, value: made.value }, { status: 'completed', output: made.output, value: made.value, error: null, durationMs: elapsed(started) }); // prettier-ignore
  return made.value;
}

async function runControl(env: RunEnv, node: ControlNode, path: string, scope: Scope) {
  const where = `Workflow ${env.workflow}, ${path} (${node.kind})`;
  switch (node.kind) {
    case 'if': {
      const branch = await decided(env, node, path, async () => {
        const taken = (await truthy(node.condition, scope, where)) ? 'then' : 'else';
        return { input: { condition: node.condition }, value: taken, output: { branch: taken } };
      });
      return runNodes(env, (branch === 'then' ? node.then : node.else) as Node[], `${path}.${branch}`, scope); // prettier-ignore
    }
    case 'forEach':
      return forEach(env, node, path, scope, where);
    case 'parallel': {
      const settled = await Promise.allSettled(
        node.branches.map((branch, i) => runNodes(env, branch as Node[], `${path}.parallel[${i}]`, scope)), // prettier-ignore
      );
      return settledOutputs(settled);
    }
    case 'set':
    case 'return': {
      const value = await decided(env, node, path, async () => {
        const made = await evaluateAll(node.value, scope, where);
        return { input: node.value, value: made, output: made };
      });
      if (node.kind === 'return') throw new Returned(value);
      return value;
    }
    case 'sleep':
      return pause(env, node, path, scope, where);
    default:
      return waitFor(env, node, path);
  }
}

/** The branches' (or iterations') last outputs; the first failure, else a park, is thrown. */
function settledOutputs(settled: PromiseSettledResult<unknown>[]) {
  const failed = settled.find((s) => s.status === 'rejected' && !(s.reason instanceof Parked)) as
    PromiseRejectedResult | undefined;
  if (failed) throw failed.reason;
  const parked = settled
    .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
    .map((s) => s.reason as Parked);
  if (parked.length) {
    const status = parked.some((p) => p.status === 'waiting') ? 'waiting' : 'sleeping';
    throw new Parked(status, new Date(Math.min(...parked.map((p) => p.wakeAt.getTime()))));
  }
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value);
}

async function forEach(
  env: RunEnv,
  node: Extract<ControlNode, { kind: 'forEach' }>,
  path: string,
  scope: Scope,
  where: string,
) {
  const items = await decided(env, node, path, async () => {
    const value = await evaluateAll(node.items, scope, where);
    if (!Array.isArray(value)) throw new Error(`its expression gave ${value === null ? 'nothing' : typeof value}, not an array`); // prettier-ignore
    if (value.length > env.budget.maxItems)
      throw new Error(`${value.length} items, at most ${env.budget.maxItems} (STAGE_WORKFLOW_MAX_ITEMS)`); // prettier-ignore
    return { input: { items: node.items }, value, output: { count: value.length } };
  });
  const settled: PromiseSettledResult<unknown>[] = new Array(items.length);
  let next = 0;
  let stop = false;
  const worker = async () => {
    while (next < items.length && !stop) {
      const i = next++;
      const inner: Scope = { ...scope, item: items[i], index: i, steps: Object.assign(Object.create(null), scope.steps) }; // prettier-ignore
      try {
        settled[i] = { status: 'fulfilled', value: await runNodes(env, node.steps as Node[], `${path}.forEach[${i}]`, inner) }; // prettier-ignore
      } catch (reason) {
        settled[i] = { status: 'rejected', reason };
        if (!(reason instanceof Parked)) stop = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(node.concurrency, items.length) }, worker));
  return settledOutputs(settled.filter((s) => s !== undefined));
}

/** A sleep: recorded with its end, then the run parks; once the end has passed, it is done. */
async function pause(
  env: RunEnv,
  node: Extract<ControlNode, { kind: 'sleep' }>,
  path: string,
  scope: Scope,
  where: string,
) {
  const done = env.records.get(path);
  if (done?.status === 'completed') return done.output;
  const row = { path, index: node.index, block: 'sleep', as: node.as, attempts: 1 };
  if (done?.status === 'waiting') {
    const until = new Date((done.value as { until: number }).until);
    if (until.getTime() > Date.now()) throw new Parked('sleeping', until);
    const output = { slept: Date.now() - done.started_at.getTime() };
    await env.write((db) => endStep(db, env.runId, path, { status: 'completed', output, error: null, durationMs: output.slept })); // prettier-ignore
    return output;
  }
  spend(env, path);
  const duration = await evaluateAll(node.duration, scope, where);
  const ms = typeof duration === 'number' ? duration : durationMs(duration);
  if (ms === null || ms < 0 || ms > MAX_WAIT_MS) {
    const failure = new ApiError('BAD_REQUEST', `${where}: ${JSON.stringify(duration)} is not a duration of at most 30d`); // prettier-ignore
    await record(env, { ...row, input: null }, { status: 'failed', output: null, error: failure.message, durationMs: 0 }); // prettier-ignore
    throw new StepFailed(failure);
  }
  const until = Date.now() + ms;
  await record(env, { ...row, input: { duration }, status: 'waiting', value: { until } });
  throw new Parked('sleeping', new Date(until));
}

/** A waitFor: recorded waiting until its timeout; an approval, a rejection or an event ends it. */
async function waitFor(env: RunEnv, node: Extract<ControlNode, { kind: 'waitFor' }>, path: string) {
  const done = env.records.get(path);
  if (done?.status === 'completed') return done.output;
  if (done?.status === 'failed') throw new StepFailed(new ApiError('FORBIDDEN', done.error ?? 'rejected')); // prettier-ignore
  if (done?.status === 'waiting') {
    const until = new Date((done.value as { until: number }).until);
    if (until.getTime() > Date.now()) throw new Parked('waiting', until);
    const output = { status: 'timedOut' };
    await env.write((db) => endStep(db, env.runId, path, { status: 'completed', output, error: null, durationMs: Date.now() - done.started_at.getTime() })); // prettier-ignore
    return output;
  }
  spend(env, path);
  const until = Date.now() + node.timeoutMs;
  const input = node.approval ? { approval: node.approval } : { event: node.event, match: node.match }; // prettier-ignore
  const value = { until, event: node.event, match: node.match };
  await record(env, { path, index: node.index, block: 'waitFor', as: node.as, attempts: 1, input, status: 'waiting', value }); // prettier-ignore
  throw new Parked('waiting', new Date(until));
}
