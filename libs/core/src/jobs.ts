import type { FastifyInstance } from 'fastify';

export interface PeriodicJob {
  name: string;
  /** Pause between the end of one run and the start of the next; 0 or less turns the job off. */
  intervalMs: number;
  task: () => Promise<unknown>;
}

/**
 * Runs `task` once the app is ready and then every `intervalMs` until it closes; never two runs at
 * once (the next one is scheduled when the last has finished). A failed run is logged, not thrown:
 * the next one tries again. `intervalMs <= 0` disables the job. Closing the app waits for a run
 * under way.
 */
export function runPeriodically(app: FastifyInstance, job: PeriodicJob): void {
  if (job.intervalMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(tick, delay);
    timer.unref();
  };
  const tick = () => {
    running = job.task().then(
      (result) => app.log.info({ job: job.name, result }, `${job.name} done`),
      (error: unknown) => app.log.error({ job: job.name, err: error }, `${job.name} failed`),
    );
    void running.finally(() => {
      running = undefined;
      schedule(job.intervalMs);
    });
  };

  app.addHook('onReady', async () => schedule(0));
  app.addHook('onClose', async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  });
}
