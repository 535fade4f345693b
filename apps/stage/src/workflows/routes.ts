import type { ServiceRoutes } from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase } from '../database.js';

/** POST /api/v1/run/:appSid/:workflowName (mounted at /api/v1/run). */
export const runRoutes: ServiceRoutes<StageDatabase, StageConfig> = async () => {};

/** GET /api/v1/stage/apps/:sid/runs and /runs/:runId (under the stage prefix). */
export const runHistoryRoutes: ServiceRoutes<StageDatabase, StageConfig> = async () => {};
