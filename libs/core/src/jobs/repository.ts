import { jsonb, sql, type Generated, type Kysely, type Selectable } from '@platform/db';
import { newId } from '../ids.js';

// All SQL of the durable jobs. The table is made in every service schema by libs/db's
// PLATFORM_MIGRATIONS (see there for what each column means). Times are the database's `now()`,
// never a process's clock, so instances whose clocks disagree still agree on leases.

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobsTable {
  id: string;
  kind: string;
  payload: unknown;
  status: JobStatus;
  attempts: Generated<number>;
  max_attempts: number;
  resumable: boolean;
  run_at: Generated<Date>;
  locked_by: string | null;
  lease_until: Date | null;
  last_error: string | null;
  result: unknown;
  key: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** W3C trace context of the request that queued it (a libs/core migration adds the column). */
  trace_context?: Record<string, string> | null;
}

/** The service's schema as far as jobs go (any service's Kysely, seen through this table). */
export type JobsDb = Kysely<{ jobs: JobsTable }>;

/** A stored job, its payload and result typed by its kind. */
export type Job<Payload = unknown, Result = unknown> = Omit<
  Selectable<JobsTable>,
  'payload' | 'result'
> & { payload: Payload; result: Result | null };

/** A claimed job: `interrupted` when the claim took over a run whose instance died. */
export type ClaimedJob = Job & { interrupted: boolean };

/** `now()` plus a number of milliseconds, computed by the database. */
const fromNow = (ms: number) => sql<Date>`now() + make_interval(secs => ${ms / 1000})`;

export interface NewJob {
  kind: string;
  payload: unknown;
  maxAttempts: number;
  resumable: boolean;
  runAt?: Date;
  key?: string;
  /** Only when tracing is on (the column exists where processes export traces). */
  traceContext?: Record<string, string>;
}

/**
 * Stores a job, queued; or, with `heldBy`, already running in that instance (its first attempt),
 * so that no other instance's worker takes it before this one starts it.
 */
export function insertJob(
  db: JobsDb,
  job: NewJob,
  heldBy?: { instance: string; leaseMs: number },
): Promise<Job> {
  const held = heldBy && {
    status: 'running' as const,
    attempts: 1,
    locked_by: heldBy.instance,
    lease_until: fromNow(heldBy.leaseMs),
  };
  return db
    .insertInto('jobs')
    .values({
      id: newId(16),
      kind: job.kind,
      payload: jsonb(job.payload ?? null),
      status: 'queued',
      max_attempts: job.maxAttempts,
      resumable: job.resumable,
      run_at: job.runAt ?? sql<Date>`now()`,
      key: job.key ?? null,
      ...(job.traceContext ? { trace_context: jsonb(job.traceContext) } : {}),
      ...held,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Claims up to `limit` jobs of these kinds for `instance`, in one statement: queued ones that are
 * due, and running ones whose lease expired (their instance died). `for update skip locked` makes
 * concurrent claims by several instances take different rows, so no job runs twice.
 */
export async function claimDue(
  db: JobsDb,
  kinds: string[],
  instance: string,
  leaseMs: number,
  limit: number,
): Promise<ClaimedJob[]> {
  if (kinds.length === 0 || limit <= 0) return [];
  return db
    .with('due', (qb) =>
      qb
        .selectFrom('jobs')
        .select(['id', 'status'])
        .where('kind', 'in', kinds)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', sql<Date>`now()`)]),
            // Not a run of this instance's own: that one is still going (its renewals may have
            // failed for a while, as in a database outage); it finishes or aborts it itself.
            eb.and([
              eb('status', '=', 'running'),
              eb('lease_until', '<', sql<Date>`now()`),
              eb('locked_by', '<>', instance),
            ]),
          ]),
        )
        .orderBy('run_at')
        .orderBy('id')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .updateTable('jobs')
    .from('due')
    .set((eb) => ({
      status: 'running',
      locked_by: instance,
      lease_until: fromNow(leaseMs),
      attempts: eb('jobs.attempts', '+', 1),
      updated_at: sql<Date>`now()`,
    }))
    .whereRef('jobs.id', '=', 'due.id')
    .returningAll('jobs')
    .returning(sql<boolean>`due.status = 'running'`.as('interrupted'))
    .execute();
}

/** One run of a job: the job and its attempt number, which a later claim of it changes. */
export type Run = Pick<Job, 'id' | 'attempts'>;

/** Extends the lease of a run of this instance; false when the job is no longer that run's. */
export async function renewLease(db: JobsDb, run: Run, instance: string, leaseMs: number) {
  const { numUpdatedRows } = await heldBy(db, run, instance)
    .set({ lease_until: fromNow(leaseMs) })
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}

/**
 * Locks the job's row for the rest of the transaction `db` if this run still holds it (see
 * heldBy); false when it does not. A claim skips locked rows, so none can take the job meanwhile.
 */
export async function lockHeld(db: JobsDb, run: Run, instance: string) {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('id', '=', run.id)
    .where('attempts', '=', run.attempts)
    .where('locked_by', '=', instance)
    .where('status', '=', 'running')
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** How a run ended. */
export type Outcome =
  | { status: 'completed'; result: unknown }
  | { status: 'failed'; error: string }
  /** Runs again at `afterMs` from now: a retry after a failure, or a periodic job's next run. */
  | { status: 'queued'; afterMs: number; error: string | null; resetAttempts?: boolean };

/**
 * Records the end of a run, if the job is still that run's (a run whose job was claimed again
 * after its lease expired writes nothing). Returns the job as it is now, or undefined when it was not this instance's.
 */
export function finishJob(
  db: JobsDb,
  run: Run,
  instance: string,
  outcome: Outcome,
): Promise<Job | undefined> {
  const done = { locked_by: null, lease_until: null, updated_at: sql<Date>`now()` };
  const changes =
    outcome.status === 'completed'
      ? { status: 'completed' as const, result: jsonb(outcome.result ?? null) }
      : outcome.status === 'failed'
        ? { status: 'failed' as const, last_error: outcome.error }
        : {
            status: 'queued' as const,
            run_at: fromNow(outcome.afterMs),
            last_error: outcome.error,
            ...(outcome.resetAttempts ? { attempts: 0 } : {}),
          };
  return heldBy(db, run, instance)
    .set({ ...done, ...changes })
    .returningAll()
    .executeTakeFirst();
}

/** The job while this run holds it: the same instance, and no claim of it since. */
const heldBy = (db: JobsDb, run: Run, instance: string) =>
  db
    .updateTable('jobs')
    .where('id', '=', run.id)
    .where('attempts', '=', run.attempts)
    .where('locked_by', '=', instance)
    .where('status', '=', 'running');

/**
 * The one row of a periodic job (keyed by its kind): made due at once the first time; a row that
 * exists keeps its schedule (so a restart does not run it again early), brought forward when the
 * interval got shorter than the wait left.
 */
export async function schedulePeriodic(db: JobsDb, kind: string, intervalMs: number) {
  await db
    .insertInto('jobs')
    .values({
      id: newId(16),
      kind,
      key: kind,
      payload: jsonb(null),
      max_attempts: 3,
      resumable: true,
      status: 'queued',
    })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        run_at: sql<Date>`least(jobs.run_at, ${fromNow(intervalMs)})`,
        status: sql<JobStatus>`case when jobs.status = 'running' then 'running' else 'queued' end`,
      }),
    )
    .execute();
}

export function findJob(db: JobsDb, id: string): Promise<Job | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}
