import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { CallContext } from './host.js';
import type {
  BackendEnv,
  Failure,
  FromChild,
  LogLine,
  RuntimeLimits,
  ToChild,
  WireRequest,
  WireResponse,
} from './protocol.js';

/** The compiled runtime: run from dist even when the service runs from source (the tests). */
export const CHILD_PATH = join(__dirname, '../../../dist/domain/backends/child.js');

export interface BackendJob {
  sid: string;
  hash: string;
  code: string;
  request: WireRequest;
  env: BackendEnv;
  context: CallContext;
}

/** How a request ended, with the console.* lines the backend logged meanwhile. */
export type RuntimeOutcome = (
  { ok: true; response: WireResponse } | { ok: false; failure: Failure }
) & { logs?: LogLine[] };

type OnCall = (sid: string, context: CallContext | null, op: string, args: unknown[]) => Promise<unknown>; // prettier-ignore
type OnCallError = (error: unknown) => { code: string; message: string };

interface Running {
  job: BackendJob;
  finish(outcome: RuntimeOutcome): void;
}

/**
 * Supervises the backend runtime, a child process (child.ts) started at the first request: sends
 * it requests (with the bundle when it may not have it), answers its isolates' platform calls,
 * fails the requests under way when it dies and starts a new one for the next request. `close`
 * stops it.
 */
export class BackendRuntime {
  private child: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  /** The version of each app the current child was given. */
  private loaded = new Map<string, string>();
  private running = new Map<number, Running>();
  private nextId = 1;
  private closed = false;
  /** Unexpected exits in a row (a child living STABLE_MS resets it), and when to try again. */
  private crashes = 0;
  private startedAt = 0;
  private retryAt = 0;

  constructor(
    private readonly limits: RuntimeLimits,
    private readonly onCall: OnCall,
    private readonly onCallError: OnCallError,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The runtime's process id (tests), when one runs. */
  get pid() {
    return this.child?.pid;
  }

  async fetch(job: BackendJob): Promise<RuntimeOutcome> {
    if (this.closed) return crashed('the service is shutting down');
    const wait = this.retryAt - Date.now();
    if (wait > 0)
      return crashed(`the runtime keeps stopping; it is started again in ${wait} ms`, Math.ceil(wait / 1000)); // prettier-ignore
    let child: ChildProcess;
    try {
      child = await this.start();
    } catch (error) {
      return crashed(`the runtime could not start: ${(error as Error).message}`);
    }
    const id = this.nextId++;
    return new Promise<RuntimeOutcome>((resolve) => {
      // The runtime enforces the limits; this only guards against a runtime that stops answering.
      const timer = setTimeout(
        () => finish(crashed('the runtime did not answer in time')),
        this.limits.wallMs + 10_000,
      );
      const finish = (outcome: RuntimeOutcome) => {
        clearTimeout(timer);
        if (this.running.delete(id)) resolve(outcome);
      };
      this.running.set(id, { job, finish });
      this.send(child, id, job, this.loaded.get(job.sid) !== job.hash);
    });
  }

  private send(child: ChildProcess, id: number, job: BackendJob, withCode: boolean) {
    const message: ToChild = {
      type: 'fetch',
      id,
      sid: job.sid,
      hash: job.hash,
      request: job.request,
      env: job.env,
      ...(withCode ? { code: job.code } : {}),
    };
    if (withCode) this.loaded.set(job.sid, job.hash);
    if (child.connected) child.send(message);
  }

  private start(): Promise<ChildProcess> {
    if (this.child?.connected) return Promise.resolve(this.child);
    if (this.starting) return this.starting;
    if (!existsSync(CHILD_PATH))
      return Promise.reject(
        new Error(`${CHILD_PATH} is missing: build the stage service (tsc -b)`),
      );
    this.starting = new Promise<ChildProcess>((resolve, reject) => {
      const child = fork(CHILD_PATH, [], {
        // No WebAssembly at all (its memory is outside the isolates' limits); a bounded heap of
        // the runtime itself (the isolates have their own, STAGE_BACKEND_MEMORY_MB each).
        execArgv: ['--no-node-snapshot', '--no-expose-wasm', '--max-old-space-size=512'],
        serialization: 'advanced',
        // Nothing of the service's environment: no secrets, no database URL (the isolate boundary
        // is the protection; this only keeps a breach of it from finding them).
        env: { STAGE_BACKEND_LIMITS: JSON.stringify(this.limits) },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child.on('message', (message: FromChild) => {
        if (message.type === 'ready') {
          this.child = child;
          this.startedAt = Date.now();
          this.starting = null;
          resolve(child);
        } else this.receive(child, message);
      });
      child.once('error', (error) => {
        this.starting = null;
        reject(error);
      });
      child.once('exit', (code, signal) => {
        if (!this.closed) this.backOff();
        if (this.starting && this.child !== child) {
          this.starting = null;
          reject(new Error(`it exited at once (${signal ?? code})`));
        }
        this.exited(child, code, signal);
      });
    });
    return this.starting;
  }

  /** A child that keeps stopping is started again after 0, 250, 500... up to 5000 ms. */
  private backOff() {
    const stable = this.startedAt > 0 && Date.now() - this.startedAt > STABLE_MS;
    this.crashes = stable ? 1 : this.crashes + 1;
    this.startedAt = 0;
    const delay = this.crashes <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, 250 * 2 ** (this.crashes - 2));
    this.retryAt = Date.now() + delay;
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) {
    if (this.child !== child) return;
    this.child = null;
    this.loaded.clear();
    if (!this.closed) this.log.error({ code, signal }, 'stage backend runtime exited; restarting it at the next request'); // prettier-ignore
    for (const running of [...this.running.values()])
      running.finish(crashed('the runtime stopped while this request ran (it is restarted)'));
  }

  private receive(child: ChildProcess, message: FromChild) {
    if (message.type === 'response') {
      this.running
        .get(message.id)
        ?.finish(
          message.ok
            ? { ok: true, response: message.response, logs: message.logs }
            : { ok: false, failure: message.failure, logs: message.logs },
        );
    } else if (message.type === 'missing') {
      const running = this.running.get(message.id);
      if (running) this.send(child, message.id, running.job, true);
    } else if (message.type === 'call') {
      void this.call(child, message);
    }
  }

  private async call(child: ChildProcess, message: Extract<FromChild, { type: 'call' }>) {
    let reply: ToChild;
    try {
      // Who the call acts for comes from this side's own record of the request, never the child.
      const running = message.request === null ? undefined : this.running.get(message.request);
      const underWay =
        message.request === null
          ? [...this.running.values()].some((r) => r.job.sid === message.sid)
          : running?.job.sid === message.sid;
      if (!underWay)
        throw Object.assign(new Error('The request this call acts for has ended'), { name: 'PlatformError', code: 'BAD_REQUEST' }); // prettier-ignore
      const value = await this.onCall(message.sid, running?.job.context ?? null, message.op, message.args); // prettier-ignore
      reply = { type: 'result', id: message.id, ok: true, value: value ?? null };
    } catch (error) {
      reply = { type: 'result', id: message.id, ok: false, ...this.onCallError(error) };
    }
    if (child.connected) child.send(reply);
  }

  /** Stops the runtime; requests under way fail. */
  async close() {
    this.closed = true;
    const child = this.child ?? (await this.starting?.catch(() => null));
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}

const STABLE_MS = 10_000;
const MAX_BACKOFF_MS = 5000;

const crashed = (message: string, retryAfter?: number): RuntimeOutcome => ({
  ok: false,
  failure: { kind: 'crashed', message, ...(retryAfter ? { retryAfter } : {}) },
});
