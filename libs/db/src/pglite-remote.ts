import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGliteSession } from './pglite-dialect.js';

export type WorkerRequest =
  | { op: 'query'; id: number; sql: string; params: unknown[]; blob?: Blob }
  | { op: 'listen' | 'unlisten'; id: number; channel: string }
  | { op: 'close'; id: number };

/**
 * The worker answers with arrays of these. id 0: the worker is ready (or failed to open); id -1: a
 * notification; else a request's answer.
 */
export type WorkerReply =
  | { id: number; rows: unknown[]; affectedRows?: number }
  | { id: number; error: Record<string, unknown> }
  | { id: -1; channel: string; payload: string };

/**
 * The compiled worker entry. Resolved from the package root, so that the TypeScript sources (run
 * by Jest) start the same compiled file as dist does: `tsc -b` builds it before tests and start.
 */
export const WORKER_ENTRY = join(__dirname, '..', 'dist', 'pglite-worker.js');

/** SQLSTATE crash_shutdown: the worker died; errors.ts counts it as "database unavailable". */
const CRASHED = '57P02';

interface Pending {
  resolve(result: { rows: unknown[]; affectedRows?: number }): void;
  reject(error: Error): void;
}

/** An error raised in the worker, re-created here with its fields (code, detail, constraint...). */
function revive(fields: Record<string, unknown>): Error {
  const { message, stack: _stack, ...rest } = fields;
  return Object.assign(new Error(String(message)), rest);
}

/**
 * The main thread's handle on a PGlite instance that lives in a worker thread. Each query goes
 * over as (sql, params) and comes back as parsed rows (int8 as numbers, timestamps as Dates,
 * jsonb as values: PGlite parses in the worker, structured clone carries the result). The worker
 * answers in arrival order; PGliteDialect decides who may send.
 */
export class PGliteWorker implements PGliteSession {
  readonly worker: Worker;
  readonly waitReady: Promise<void>;
  #next = 1;
  readonly #pending = new Map<number, Pending>();
  readonly #channels = new Map<string, Set<(payload: string) => void>>();
  /** Requests sent in this turn of the event loop: they go over in one message (see #flush). */
  #outbox: WorkerRequest[] = [];
  #failure: Error | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;

  /** Starts the worker on `location` (a directory, or `memory://`); await `waitReady`. */
  constructor(location: string) {
    this.worker = new Worker(WORKER_ENTRY, { workerData: { location } });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.#pending.set(0, { resolve: () => resolve(), reject });
    });
    this.worker.on('message', (replies: WorkerReply[]) => {
      for (const reply of replies) this.#receive(reply);
    });
    this.worker.on('error', (error) => this.#fail(error.message));
    this.worker.on('exit', (code) => this.#fail(`it exited with code ${code}`));
  }

  get closed() {
    return this.#closed;
  }

  query<R>(sql: string, params: unknown[] = [], options: { blob?: Blob } = {}) {
    const request = { op: 'query' as const, id: this.#next++, sql, params };
    return this.#send(options.blob ? { ...request, blob: options.blob } : request) as Promise<{
      rows: R[];
      affectedRows?: number;
    }>;
  }

  /** Calls `handler` with each payload notified on `channel`; resolves once listening. */
  async listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
    let handlers = this.#channels.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.#channels.set(channel, handlers);
      await this.#send({ op: 'listen', id: this.#next++, channel }).catch((error: unknown) => {
        this.#channels.delete(channel);
        throw error;
      });
    }
    handlers.add(handler);
    return async () => {
      if (!handlers.delete(handler) || handlers.size > 0) return;
      if (this.#channels.get(channel) === handlers) this.#channels.delete(channel);
      if (!this.#closed && !this.#failure)
        await this.#send({ op: 'unlisten', id: this.#next++, channel });
    };
  }

  /** Closes PGlite (flushing a data directory), then ends the worker. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (!this.#failure) await this.#send({ op: 'close', id: this.#next++ });
      this.#closed = true;
      this.#channels.clear();
      await this.worker.terminate();
    })();
    return this.#closing;
  }

  // Like an in-thread PGlite, an idle database does not keep the process alive; a query under way
  // (or the start) does: the worker is referenced exactly while something is pending.
  #send(request: WorkerRequest) {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closed || (this.#closing && request.op !== 'close'))
      return Promise.reject(new Error('PGlite is closed'));
    return new Promise<{ rows: unknown[]; affectedRows?: number }>((resolve, reject) => {
      if (this.#pending.size === 0) this.worker.ref();
      this.#pending.set(request.id, { resolve, reject });
      if (this.#outbox.push(request) === 1) setImmediate(this.#flush);
    });
  }

  /**
   * Sends the requests of one turn of the event loop (the queries of every request the HTTP server
   * read in it) as one message: a wake-up of the worker each, not one per query.
   */
  readonly #flush = () => {
    const batch = this.#outbox;
    this.#outbox = [];
    if (!this.#failure) this.worker.postMessage(batch);
  };

  #receive(reply: WorkerReply) {
    if (reply.id === -1) {
      const { channel, payload } = reply as { channel: string; payload: string };
      for (const handler of this.#channels.get(channel) ?? [])
        try {
          handler(payload);
        } catch (error) {
          // Thrown where it would be in the same thread, without losing the replies after it.
          queueMicrotask(() => {
            throw error;
          });
        }
      return;
    }
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.worker.unref();
    if ('error' in reply) pending.reject(revive(reply.error));
    else pending.resolve(reply as { rows: unknown[]; affectedRows?: number });
  }

  /** The worker is gone: every query under way and every later one fails with why. */
  #fail(reason: string) {
    if (this.#closed) return;
    this.#failure ??= Object.assign(
      new Error(`The embedded database (PGlite worker thread) stopped: ${reason}`),
      { code: CRASHED },
    );
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(this.#failure);
  }
}
