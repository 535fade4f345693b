import type { JobType, ServiceContext, ServiceRoutes } from '@platform/core';
import type { CommunicationConfig } from '../config.js';
import type { CommunicationDatabase } from '../database.js';
import { deliveryJob, type DeliveryPayload } from './deliver.js';

/** What one mounted instance keeps for its routes and jobs. */
export interface CommunicationState {
  /** The durable job that sends a delivery (see deliveryJob). */
  deliveries: JobType<DeliveryPayload, never, CommunicationDatabase>;
}

export type CommunicationContext = ServiceContext<
  CommunicationDatabase,
  CommunicationConfig,
  CommunicationState
>;
/** A route plugin of communication. */
export type CommunicationRoutes = ServiceRoutes<
  CommunicationDatabase,
  CommunicationConfig,
  CommunicationState
>;

/** The definition's `setup`: run once per mounted instance. */
export const communicationState = (
  ctx: ServiceContext<CommunicationDatabase, CommunicationConfig>,
): CommunicationState => ({ deliveries: ctx.jobs.define(deliveryJob(ctx)) });
