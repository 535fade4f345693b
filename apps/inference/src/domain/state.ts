import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { InferenceConfig } from '../config.js';
import type { InferenceDatabase } from '../database.js';
import { Balancer } from './balancing.js';
import { ResponseCache } from './cache.js';
import { KeyMeter } from './limits.js';
import { ProviderRegistry } from './registry.js';
import { RequestLog } from './request-log.js';
import { usageMetrics } from './usage-metrics.js';

/** What one mounted instance keeps for its routes: the providers in memory, the log's writer. */
export interface InferenceState {
  providers: ProviderRegistry;
  requestLog: RequestLog;
  /** Keys' limits and counts (in the database). */
  meter: KeyMeter;
  /** Providers sharing a model by weight, and their cool-downs (in the database). */
  balancer: Balancer;
  /** The exact-match response cache (in the database). */
  cache: ResponseCache;
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
  config,
  metrics,
}: ServiceContext<InferenceDatabase, InferenceConfig>): InferenceState {
  const requestLog = new RequestLog(db, log, metrics && usageMetrics(metrics));
  return {
    providers: new ProviderRegistry(db),
    requestLog,
    meter: new KeyMeter(db, log),
    balancer: new Balancer(db, log, config.cooldownMs),
    cache: new ResponseCache(db, log, config.cacheMaxTtlS),
    close: () => requestLog.close(),
  };
}
