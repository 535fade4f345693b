import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kysely } from '@platform/db';
import {
  claimDue,
  finishJob,
  insertJob,
  lockHeld,
  renewLease,
  schedulePeriodic,
  type Job,
  type JobsDb,
  type Outcome,
} from './repository.js';
import { captureTraceContext, inSpan } from '../tracing.js';
import {
  INTERRUPTED,
  JobFailure,
  type JobDefinition,
  type JobQueueOptions,
  type JobType,
  type Logger,
} from './types.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a queue holds kinds of any payload
type AnyDefinition = JobDefinition<any, any, any, any>;

/** The durable jobs of one service instance: see ./index.ts. */
export class JobQueue<DB = unknown> {
  readonly instance: string;
  private readonly kinds = new Map<string, AnyDefinition>();
  private readonly runs = new Map<string, { done: Promise<void>; abort: AbortController }>();
  /** Runs `start` has taken a slot for while it stores their job. */
  private starting = 0;
  private readonly options: Required<Omit<JobQueueOptions, 'instance'>>;
  private timer: NodeJS.Timeout | undefined;
  private nextPollAt = Infinity;
  private polling: Promise<void> | undefined;
  private pollAgain = false;
  private state: 'idle' | 'polling' | 'stopped' = 'idle';

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: Logger,
    options: JobQueueOptions = {},
  ) {
    this.instance =
      options.instance ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.options = {
      pollMs: options.pollMs ?? 1000,
      leaseMs: options.leaseMs ?? 30_000,
      concurrency: options.concurrency ?? 4,
      drainMs: options.drainMs ?? 10_000,
    };
  }

  private get jobs() {
    return this.db as unknown as JobsDb;
  }

  define<Payload, Result = unknown, Transient = never>(
    definition: JobDefinition<Payload, Result, Transient, DB>,
  ): JobType<Payload, Transient, DB> {
    if (this.kinds.has(definition.kind))
      throw new Error(`Job kind ${definition.kind} is defined twice`);
    this.kinds.set(definition.kind, definition);
    const stored = (payload: Payload, resumable: boolean) => ({
      kind: definition.kind,
      payload,
      maxAttempts: definition.maxAttempts ?? 3,
      resumable: resumable && definition.resumable !== false,
      traceContext: captureTraceContext(),
    });
    const enqueue = async (payload: Payload, options: { runAt?: Date } = {}) => {
      const job = await insertJob(this.jobs, { ...stored(payload, true), ...options });
      this.wake(Math.max(0, (options.runAt?.getTime() ?? 0) - Date.now()));
      return job as Job<Payload>;
    };
    const start = async <Record = undefined>(
      payload: Payload,
      options: {
        transient?: Transient;
        record?: (db: Kysely<DB>) => Promise<Record>;
        /**
         * When this instance already runs `concurrency` jobs, store the job queued for the
         * pollers instead of running it here at once (sends that must not open a connection
         * each); only where this instance polls, and never with transient data.
         */
        mayQueue?: boolean;
      } = {},
    ) => {
      const { transient, record } = options;
      // Decided, and the slot taken, before the first await: a burst of starts sees its own.
      const queue =
        options.mayQueue === true &&
        transient === undefined &&
        this.state === 'polling' &&
        this.runs.size + this.starting >= this.options.concurrency;
      if (!queue) this.starting += 1;
      const held = queue ? undefined : { instance: this.instance, leaseMs: this.options.leaseMs };
      let saved: { job: Job; record: Record };
      try {
        saved = await this.db.transaction().execute(async (trx) => ({
          job: await insertJob(trx as unknown as JobsDb, stored(payload, !transient), held),
          record: (record ? await record(trx) : undefined) as Record,
        }));
      } finally {
        if (!queue) this.starting -= 1;
      }
      if (queue) this.wake(0);
      else this.run({ ...saved.job, interrupted: false }, transient);
      return saved as { job: Job<Payload>; record: Record };
    };
    return { enqueue, start };
  }

  /** The periodic kinds' rows, then the first poll: what an instance that runs jobs does. */
  async startPolling() {
    if (this.state !== 'idle') return;
    this.state = 'polling';
    for (const { kind, repeatMs } of this.kinds.values())
      if (repeatMs !== undefined) await schedulePeriodic(this.jobs, kind, repeatMs);
    this.wake(0);
  }

  /** Stops claiming, waits up to drainMs for the runs under way, and leaves the rest to expire. */
  async stop() {
    this.state = 'stopped';
    clearTimeout(this.timer);
    await this.polling;
    const all = Promise.all([...this.runs.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.options.drainMs);
    });
    const drained = await Promise.race([all, timeout]);
    clearTimeout(timer);
    if (drained !== 'timeout') return;
    this.log.error({ jobs: [...this.runs.keys()] }, 'jobs still running at shutdown');
    for (const run of this.runs.values()) run.abort.abort();
  }

  /** Polls within `delayMs` (sooner than planned), when this instance polls. */
  wake(delayMs: number) {
    if (this.state !== 'polling') return;
    const at = Date.now() + delayMs;
    if (at >= this.nextPollAt) return;
    clearTimeout(this.timer);
    this.nextPollAt = at;
    this.timer = setTimeout(() => this.pollNow(), delayMs);
    this.timer.unref();
  }

  private pollNow() {
    this.nextPollAt = Infinity;
    // A wake-up during a poll is not lost: the poll runs again as soon as this one ends.
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = this.poll().finally(() => {
      this.polling = undefined;
      const again = this.pollAgain;
      this.pollAgain = false;
      this.wake(again ? 0 : this.options.pollMs);
    });
  }

  private async poll() {
    try {
      for (;;) {
        const room = this.options.concurrency - this.runs.size - this.starting;
        const kinds = [...this.kinds.keys()];
        const claimed = await claimDue(this.jobs, kinds, this.instance, this.options.leaseMs, room);
        for (const job of claimed) this.run(job);
        if (claimed.length === 0 || claimed.length < room || this.state !== 'polling') return;
      }
    } catch (error) {
      this.log.error({ err: error }, 'jobs: polling failed');
    }
  }

  /** Runs a job this instance holds; never throws (what goes wrong is logged). */
  private run(job: Job & { interrupted: boolean }, transient?: unknown) {
    const abort = new AbortController();
    const done = this.execute(job, transient, abort)
      .catch((error: unknown) => this.log.error({ err: error, job: job.id }, 'jobs: run failed'))
      .finally(() => {
        this.runs.delete(job.id);
        this.wake(0);
      });
    this.runs.set(job.id, { done, abort });
  }

  private async execute(
    job: Job & { interrupted: boolean },
    transient: unknown,
    abort: AbortController,
  ) {
    const definition = this.kinds.get(job.kind);
    if (!definition) throw new Error(`No handler for job kind ${job.kind}`);
    const { leaseMs } = this.options;
    if (job.interrupted && (!job.resumable || job.attempts > job.max_attempts)) {
      this.log.error({ job: job.id, kind: job.kind }, `job ${job.kind} interrupted: failed`);
      return this.finish(definition, job, { status: 'failed', error: INTERRUPTED });
    }

    // The heartbeat: renews the lease while the handler runs; a lost lease stops this run.
    const heartbeat = setInterval(() => {
      renewLease(this.jobs, job, this.instance, leaseMs).then(
        (held) => held || abort.abort(),
        (error: unknown) => this.log.error({ err: error, job: job.id }, 'jobs: lease not renewed'),
      );
    }, leaseMs / 3);
    heartbeat.unref();
    abort.signal.addEventListener('abort', () => clearInterval(heartbeat));
    let outcome: Outcome;
    try {
      const fence = async <T>(db: Kysely<T>) => {
        if (await lockHeld(db as unknown as JobsDb, job, this.instance)) return;
        abort.abort();
        throw new Error(`Job ${job.id} was taken over by another run; this one writes nothing`);
      };
      // A span of its own, in the trace of the request that queued it (tracing.ts).
      const result = await inSpan(
        `job ${job.kind}`,
        job.trace_context,
        { 'job.id': job.id, 'job.kind': job.kind, 'job.attempt': job.attempts },
        () => definition.handler(job.payload, { job, transient, signal: abort.signal, fence }),
      );
      outcome = definition.repeatMs
        ? { status: 'queued', afterMs: definition.repeatMs, error: null, resetAttempts: true }
        : { status: 'completed', result };
      // Periodic work every minute or more is worth a line; a tick every few seconds is noise.
      if (definition.repeatMs)
        this.log[definition.repeatMs >= 60_000 ? 'info' : 'debug']({ job: job.kind, result }, `${job.kind} done`); // prettier-ignore
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.error({ err: error, job: job.id, kind: job.kind }, `job ${job.kind} failed`);
      const again =
        !(error instanceof JobFailure) && job.resumable && job.attempts < job.max_attempts;
      outcome = definition.repeatMs
        ? { status: 'queued', afterMs: definition.repeatMs, error: message, resetAttempts: true }
        : again
          ? { status: 'queued', afterMs: backoff(definition, job.attempts), error: message }
          : { status: 'failed', error: message };
    } finally {
      clearInterval(heartbeat);
    }
    if (abort.signal.aborted) return; // no longer this instance's job (or closing): write nothing
    await this.finish(definition, job, outcome);
    if (outcome.status === 'queued') this.wake(outcome.afterMs);
  }

  /** Records the outcome and calls the kind's hook in one transaction. */
  private async finish(definition: AnyDefinition, job: Job, outcome: Outcome) {
    await this.db.transaction().execute(async (trx) => {
      const now = await finishJob(trx as unknown as JobsDb, job, this.instance, outcome);
      if (!now) return;
      if (outcome.status === 'completed') await definition.onComplete?.(trx, now);
      if (outcome.status === 'failed') await definition.onFail?.(trx, now, outcome.error);
    });
  }
}

const backoff = (definition: AnyDefinition, attempts: number) =>
  definition.backoffMs?.(attempts) ?? Math.min(1000 * 2 ** (attempts - 1), 300_000);
