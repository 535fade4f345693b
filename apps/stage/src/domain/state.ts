import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase } from '../database/index.js';
import { LogFeed } from './backends/logs.js';
import { Outbound } from './backends/outbound.js';
import { backendRunner, type BackendRunner } from './backends/runner.js';
import { appScheduler, type AppScheduler } from './backends/scheduler.js';
import { secretKey } from './backends/secrets.js';
import { NpmPackages } from './npm/packages.js';
import { setupWorkflows, type WorkflowEngine } from './workflows/durable.js';
import { runWorkflow, type StartRun } from './workflows/run.js';

/**
 * What one instance of the sandbox builds once, in its setup, before its routes and jobs: they
 * find it in `ctx.state`. Closing the instance closes it (after the jobs under way have ended).
 */
export interface StageState {
  /** The key app secrets are sealed with (from SESSION_SECRET); null when auth is off. */
  secretKey: Buffer | null;
  /** Wakes the live streams of an app's logs when this instance stores lines of it. */
  logs: LogFeed;
  /** The app backends' fetch (its connection pools). */
  outbound: Outbound;
  /** The runtime of app backends (isolates, build cache) and the handler of their requests. */
  backends: BackendRunner;
  /** The app schedules' jobs. */
  schedules: AppScheduler;
  /** The npm packages of renders (a backend's builds have their own, in `backends`). */
  packages: NpmPackages;
  /** The durable workflow runs' job kind and this instance's run events (domain/workflows). */
  workflows: WorkflowEngine;
  close(): Promise<void>;
}

/** What the sandbox's routes and jobs are given. */
export type StageContext = ServiceContext<StageDatabase, StageConfig, StageState>;

/** The context without its state: what setup is given, and what code needing no state takes. */
export type StageBaseContext = ServiceContext<StageDatabase, StageConfig, unknown>;

/** A route plugin of the sandbox. */
export type StageRoutes = ServiceRoutes<StageDatabase, StageConfig, StageState>;

/** Builds the instance's state (defineService's `setup`). */
export function setupStage(ctx: ServiceContext<StageDatabase, StageConfig>): StageState {
  // The backends start workflows (`@stage/compute`, scheduled runs) with the engine, which runs
  // blocks with the backends: `workflows` is read when a run starts, after this setup returned.
  const startRun: StartRun = (request) => runWorkflow(ctx, workflows, request);
  const parts = {
    secretKey: secretKey(ctx.auth),
    logs: new LogFeed(),
    outbound: new Outbound(ctx.config.backends),
  };
  const backends = backendRunner(ctx, { ...parts, startRun });
  const packages = new NpmPackages(ctx.db, ctx.config.npm);
  const workflows = setupWorkflows(ctx, { outbound: parts.outbound, backends });
  return {
    ...parts,
    backends,
    schedules: appScheduler(ctx, backends, startRun),
    packages,
    workflows,
    close: async () =>
      void (await Promise.all([backends.close(), parts.outbound.close(), packages.close()])),
  };
}
