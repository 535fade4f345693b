import { EventEmitter } from 'node:events';
import type { JobType, ServiceContext, ServiceRoutes } from '@platform/core';
import type { CommunicationConfig } from '../config.js';
import type { CommunicationDatabase } from '../database.js';
import { deliveryJob, ledgerJob, type DeliveryPayload, type LedgerEvent } from './deliver.js';
import { TemplateEngine } from './templates/render.js';
import { startBounceListener } from './bounces/listener.js';

/** What one mounted instance keeps for its routes and jobs. */
export interface CommunicationState {
  /** The durable job that sends a delivery (see deliveryJob). */
  deliveries: JobType<DeliveryPayload, never, CommunicationDatabase>;
  /** The same for a delivery with a route of several channels (room for each one's attempts). */
  routedDeliveries: JobType<DeliveryPayload, never, CommunicationDatabase>;
  /** Events appended to the ledger (communication.delivery.failed), durably. */
  ledger: JobType<LedgerEvent, never, CommunicationDatabase>;
  /** Renders and validates templates (Liquid engines, compiled data schemas). */
  templates: TemplateEngine;
  /** Emits `message` with a recipient when this instance filled their inbox (wakes streams). */
  inbox: EventEmitter;
  /** The SMTP server receiving DSNs (COMMUNICATION_BOUNCE_SMTP_PORT), when on. */
  bounces?: { port: number; close(): Promise<void> };
  /** Stops the bounce SMTP server. */
  close(): Promise<void>;
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
export async function communicationState(
  ctx: ServiceContext<CommunicationDatabase, CommunicationConfig>,
): Promise<CommunicationState> {
  const inbox = new EventEmitter();
  inbox.setMaxListeners(0);
  const ledger = ctx.jobs.define(ledgerJob(ctx));
  const deps = { ...ctx, ledger, inbox };
  const { bounces } = ctx.config;
  const listener = bounces?.listen
    ? await startBounceListener({ db: ctx.db, log: ctx.log, address: bounces.address, ...bounces.listen }) // prettier-ignore
    : undefined;
  return {
    deliveries: ctx.jobs.define(deliveryJob(deps, false)),
    routedDeliveries: ctx.jobs.define(deliveryJob(deps, true)),
    ledger,
    templates: new TemplateEngine(),
    inbox,
    bounces: listener,
    close: async () => listener?.close(),
  };
}
