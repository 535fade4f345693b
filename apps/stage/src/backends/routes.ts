import type { ServiceRoutes } from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase } from '../database.js';

/** ANY /stage/:appSid/api and /stage/:appSid/api/* (mounted at /stage). */
export const backendRoutes: ServiceRoutes<StageDatabase, StageConfig> = async () => {};
