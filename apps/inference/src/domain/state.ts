import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { InferenceConfig } from '../config.js';
import type { InferenceDatabase } from '../database.js';
import { ProviderRegistry } from './registry.js';
import { RequestLog } from './request-log.js';

/** What one mounted instance keeps for its routes: the providers in memory, the log's writer. */
export interface InferenceState {
  providers: ProviderRegistry;
  requestLog: RequestLog;
  /** The request log's last rows are written (or logged) before the database closes. */
  close(): Promise<void>;
}

export type InferenceContext = ServiceContext<InferenceDatabase, InferenceConfig, InferenceState>;
/** A route plugin of inference. */
export type InferenceRoutes = ServiceRoutes<InferenceDatabase, InferenceConfig, InferenceState>;

/** The definition's `setup`: run once per mounted instance. */
export function inferenceState({
  db,
  log,
}: ServiceContext<InferenceDatabase, InferenceConfig>): InferenceState {
  const requestLog = new RequestLog(db, log);
  return { providers: new ProviderRegistry(db), requestLog, close: () => requestLog.close() };
}
