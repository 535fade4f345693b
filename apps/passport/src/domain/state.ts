import type { ServiceContext, ServiceRoutes } from '@platform/core';
import type { PassportConfig } from '../config.js';
import type { PassportDatabase } from '../database.js';
import { auditTrail, type Audited } from './audit.js';

/** What one mounted instance keeps for its routes and jobs. */
export interface PassportState {
  /** Records a change and its audit event (a durable job to the ledger) in one transaction. */
  audited: Audited;
}

export type PassportContext = ServiceContext<PassportDatabase, PassportConfig, PassportState>;
/** A route plugin of the identity service. */
export type PassportRoutes = ServiceRoutes<PassportDatabase, PassportConfig, PassportState>;

/** The definition's `setup`: run once per mounted instance. */
export const passportState = (
  ctx: ServiceContext<PassportDatabase, PassportConfig>,
): PassportState => ({ audited: auditTrail(ctx) });
