import type { Kysely } from '@platform/db';
import type { Job } from './repository.js';

// The durable jobs' public types (the queue itself is in ./queue.ts).

/** The message of a job whose run was cut short by its process's death and cannot run again. */
export const INTERRUPTED = 'Interrupted: the service stopped while this job ran; start it again';

/** Thrown by a handler: the job fails now with this message, without another attempt. */
export class JobFailure extends Error {}

export interface JobContext<Transient> {
  job: Job;
  /** What `start` was given for this run: in this process's memory only, never stored. */
  transient: Transient | undefined;
  /** Aborted when this instance stops waiting for the run (closing) or lost the job's lease. */
  signal: AbortSignal;
  /**
   * Fences a transaction of the handler's: locks the job's row until `db` (the transaction) ends,
   * and throws, aborting `signal`, unless this run still holds the job (no claim of it since).
   * Call it first in the transaction that writes the run's work: a run that lost its lease then
   * writes nothing, and while the lock is held no other instance can claim the job.
   */
  fence<DB>(db: Kysely<DB>): Promise<void>;
}

/** A kind of job: its handler and what to do when a run fails or is interrupted. */
export interface JobDefinition<Payload, Result = unknown, Transient = never, DB = unknown> {
  /** The queue's name, unique in the service. */
  kind: string;
  handler(payload: Payload, ctx: JobContext<Transient>): Promise<Result>;
  /** false: a run cut short by a crash is not run again; the job fails (default true). */
  resumable?: boolean;
  /** Runs, interrupted ones included, before the job fails (default 3). */
  maxAttempts?: number;
  /** Pause before the next attempt after a failed one (default 1 s, doubling, at most 5 min). */
  backoffMs?(attempts: number): number;
  /** Runs again this long after each run ends, instead of completing (periodic jobs). */
  repeatMs?: number;
  /**
   * Called in the transaction that completes (or fails) the job, so that the service's record of
   * the work changes exactly when the job does. Use the `db` given: on PGlite, a query through
   * any other handle would wait for this transaction forever.
   */
  onComplete?(db: Kysely<DB>, job: Job<Payload, Result>): Promise<void>;
  onFail?(db: Kysely<DB>, job: Job<Payload, Result>, error: string): Promise<void>;
}

/** What `define` returns: how a service submits jobs of that kind. */
export interface JobType<Payload, Transient, DB> {
  /** Stores a job for a worker (the next poll; at once when this instance polls). */
  enqueue(payload: Payload, options?: { runAt?: Date }): Promise<Job<Payload>>;
  /**
   * Stores a job held by this instance and starts it here at once, in any instance (polling or
   * not). `transient` reaches the handler from memory only: a job given one cannot be resumed by
   * another process, so an interruption fails it. `record` writes the service's own record of
   * the work in the same transaction as the job (use the `db` it is given). With `mayQueue`, a
   * polling instance already running `concurrency` jobs stores the job queued instead, for the
   * next free run here or elsewhere (what bounds the connections a burst of sends opens).
   */
  start<Record = undefined>(
    payload: Payload,
    options?: {
      transient?: Transient;
      record?: (db: Kysely<DB>) => Promise<Record>;
      mayQueue?: boolean;
    },
  ): Promise<{ job: Job<Payload>; record: Record }>;
}

export interface JobQueueOptions {
  /** Milliseconds between polls for due jobs (default 1000). */
  pollMs?: number;
  /** How long a run is held without a renewal; after that another instance takes it over. */
  leaseMs?: number;
  /** Runs at once in this instance, at most (default 4). */
  concurrency?: number;
  /** How long closing waits for runs under way before leaving them to lease expiry (default 10 s). */
  drainMs?: number;
  /** Names this instance in `locked_by` (default host:pid:random). */
  instance?: string;
}

export interface Logger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
