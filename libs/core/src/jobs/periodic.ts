import type { JobQueue } from './queue.js';

export interface PeriodicJob {
  name: string;
  /** Pause between the end of one run and the start of the next; 0 or less turns the job off. */
  intervalMs: number;
  /** `signal`: aborted when this instance stops or lost the run (another instance may take it). */
  task: (signal: AbortSignal) => Promise<unknown>;
}

/**
 * Runs `task` every `intervalMs` on the durable queue: one row per job (kind and key
 * `periodic:<name>`) holds the next run's time, so the schedule survives a restart, and whichever
 * instance claims the row when it is due runs the task, never two at once. The first run is at
 * once on a new database. A failed run is logged, not thrown: the next one tries again.
 * `intervalMs <= 0` disables the job.
 */
export function runPeriodically<DB>(queue: JobQueue<DB>, job: PeriodicJob): void {
  if (job.intervalMs <= 0) return;
  queue.define({
    kind: `periodic:${job.name}`,
    repeatMs: job.intervalMs,
    handler: (_payload, ctx) => job.task(ctx.signal),
  });
}
