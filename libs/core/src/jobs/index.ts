/**
 * Durable jobs: work a service accepted and runs later or in the background (a billing sync, a
 * delivery, a periodic retention run), stored in the `jobs` table of the service's own schema
 * (made by libs/db's migrateSchema) before anything runs, so that a restart resumes or fails it
 * visibly instead of forgetting it. Same SQL on PGlite and PostgreSQL.
 *
 * - Each service instance has one JobQueue (`ctx.jobs`); route plugins `define` their kinds.
 * - `enqueue` stores a queued job for a worker; `start` stores one held by this instance and runs
 *   it here at once (the route answers 202 while it works).
 * - Instances mounted with `jobs` on poll for due jobs (every `pollMs`, and at once when they queue
 *   one) and claim them with `for update skip locked`: several instances on one database never run
 *   one job twice. A running job's lease is renewed while it runs; when its process dies, the
 *   lease expires and another instance (or the same service after a restart) takes it over:
 *   resumable jobs run again, up to maxAttempts; the others fail with INTERRUPTED.
 * - A failed run is retried with backoff, up to maxAttempts, unless the handler threw JobFailure.
 * - Only the run that still holds a job records its end; a handler that writes its work in a
 *   transaction of its own calls `ctx.fence(trx)` first, so that a run that lost its lease writes
 *   nothing (the job's row stays locked, so none can take it over, until the transaction ends).
 * - Closing the app stops claiming, waits up to `drainMs` for the runs under way, and leaves what
 *   still runs to lease expiry.
 *
 * @example
 *   const send = ctx.jobs.define<{ deliveryId: string }>({
 *     kind: 'deliver',
 *     handler: async ({ deliveryId }) => deliver(ctx.db, deliveryId),
 *     onFail: (db, job, error) => markUndelivered(db, job.payload.deliveryId, error),
 *   });
 *   await send.enqueue({ deliveryId });
 */
export { JobQueue } from './queue.js';
export { JobFailure, INTERRUPTED } from './types.js';
export type { JobContext, JobDefinition, JobQueueOptions, JobType } from './types.js';
export { runPeriodically, type PeriodicJob } from './periodic.js';
export { findJob, JOB_STATUSES, type Job, type JobStatus } from './repository.js';
