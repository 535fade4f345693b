import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { BillingConfig } from '../config.js';
import type { BillingDatabase } from '../database.js';
import { alertRunner, type AlertRunner } from './budgets-alerts.js';
import { syncRunner, type SyncRunner } from './sync.js';

/** What one mounted instance keeps for its routes and jobs. */
export interface BillingState {
  /** The sync adapters, the durable sync job, the uploads being received. */
  sync: SyncRunner;
  /** Budget evaluation, anomaly detection and the alerts' outbox, one run at a time. */
  alerts: AlertRunner;
  close(): Promise<void>;
}

export type BillingContext = ServiceContext<BillingDatabase, BillingConfig, BillingState>;
/** A route plugin of billing. */
export type BillingRoutes = ServiceRoutes<BillingDatabase, BillingConfig, BillingState>;

/** The definition's `setup`: run once per mounted instance. */
export const billingState = (ctx: ServiceContext<BillingDatabase, BillingConfig>): BillingState => {
  const alerts = alertRunner(ctx);
  return { sync: syncRunner(ctx), alerts, close: () => alerts.close() };
};
