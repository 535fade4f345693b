import { join } from 'node:path';
import { defineService } from '@platform/core';
import { STAGE_VARIABLES, stageConfig, type StageConfig } from './config.js';
import type { StageDatabase } from './database/index.js';
import { APPS_PREFIX, originHosts, PREVIEWS_PREFIX } from './domain/origins.js';
import { setupStage, type StageState } from './domain/state.js';
import { migrations } from './migrations/index.js';
import { reclaimSessions } from './repositories/sessions.js';
import { appRoutes } from './routes/apps.js';
import { backendRoutes } from './routes/backends.js';
import { fileRoutes } from './routes/files.js';
import { functionRoutes } from './routes/functions.js';
import { logRoutes } from './routes/logs.js';
import { appOriginRoutes, previewOriginRoutes } from './routes/content.js';
import { appPageRoutes, previewRoutes } from './routes/pages.js';
import { renderRoutes } from './routes/render.js';
import { scheduleRoutes } from './routes/schedules.js';
import { secretRoutes } from './routes/secrets.js';
import { sessionRoutes } from './routes/sessions.js';
import { snapshotRoutes } from './routes/snapshots.js';
import { spreadsheetRoutes } from './routes/spreadsheets.js';
import { studioRoutes } from './routes/studio.js';
import { runControlRoutes } from './routes/runs.js';
import { triggerRoutes } from './routes/triggers.js';
import { runHistoryRoutes, runRoutes } from './routes/workflows.js';
import { wakeDue } from './domain/workflows/durable.js';
import { fireSchedules } from './domain/workflows/triggers-run.js';
import { pollEvents } from './domain/workflows/events.js';

export { STAGE_VARIABLES, stageConfig, type StageConfig } from './config.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The sandbox (spec 2.2, 4.2): sessions of versioned files, esbuild renders served as previews,
 * snapshots and history, published apps, studio sessions, the `stage:` functions, workflow runs
 * (src/domain/workflows) and app backends (src/domain/backends), whose runtime, log feed and
 * schedules are the instance's state (src/domain/state.ts).
 */
export const stage = defineService<StageDatabase, StageConfig, StageState>({
  name: 'stage',
  title: 'Sandbox',
  root: join(__dirname, '..'),
  defaultPort: 3110,
  migrations,
  variables: STAGE_VARIABLES,
  config: stageConfig,
  hosts: (config) => originHosts(config.origins),
  setup: setupStage,
  routes: [
    sessionRoutes,
    fileRoutes,
    renderRoutes,
    snapshotRoutes,
    appRoutes,
    functionRoutes,
    runHistoryRoutes,
    runControlRoutes,
    triggerRoutes,
    spreadsheetRoutes,
    logRoutes,
    secretRoutes,
    scheduleRoutes,
  ],
  mounts: [
    { prefix: '/api/v1/studio', routes: [studioRoutes] },
    { prefix: '/preview', routes: [previewRoutes] },
    { prefix: '/app', routes: [appPageRoutes] },
    // Reached only through the apps' and previews' own host names (domain/origins.ts).
    { prefix: APPS_PREFIX, routes: [appOriginRoutes] },
    { prefix: PREVIEWS_PREFIX, routes: [previewOriginRoutes] },
    { prefix: '/api/v1/run', routes: [runRoutes] },
    // Not all of /stage: /stage/ is the sandbox's web UI.
    { prefix: '/stage/:appSid/api', routes: [backendRoutes] },
  ],
  jobs: (ctx) => [
    {
      // Runs whose sleep or wait is over and whose wake-up job was lost (domain/workflows).
      name: 'workflow-wake',
      intervalMs: ctx.config.workflows.wakeMs,
      task: () => wakeDue(ctx, ctx.state.workflows),
    },
    {
      // The schedule triggers of the apps' workflows: each tick fires once (domain/workflows).
      name: 'workflow-schedules',
      intervalMs: ctx.config.workflows.scheduleTickMs,
      task: () => fireSchedules(ctx, ctx.state.workflows, ctx.config.workflows.scheduleTickMs),
    },
    {
      // The event triggers: the ledger's events after a cursor, a run each (domain/workflows).
      name: 'workflow-events',
      intervalMs: ctx.config.workflows.eventPollMs,
      task: () => pollEvents(ctx, ctx.state.workflows),
    },
    {
      name: 'reclaim-sessions',
      intervalMs: ctx.config.retentionDays > 0 ? 60 * 60 * 1000 : 0,
      task: async () => ({
        reclaimed: await reclaimSessions(ctx.db, new Date(Date.now() - ctx.config.retentionDays * DAY_MS)), // prettier-ignore
      }),
    },
  ],
});

export default stage;
