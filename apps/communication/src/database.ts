import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `communication` schema, as the migrations make them. */
export interface CommunicationDatabase {
  channels: ChannelsTable;
  registrations: RegistrationsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
}

export const PROVIDERS = ['smtp', 'slack', 'webhook', 'log'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const CHANNEL_STATUSES = ['active', 'disabled'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];
export const DELIVERY_STATUSES = ['accepted', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const ATTEMPT_OUTCOMES = ['sent', 'retry', 'failed', 'interrupted'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** A channel's config as stored: literal secrets are ciphertext, `env:` references verbatim. */
export type StoredConfig = Record<string, string | number | boolean>;

export interface ChannelsTable {
  id: string;
  name: string;
  provider: Provider;
  description: string | null;
  status: Generated<ChannelStatus>;
  config: StoredConfig;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface RegistrationsTable {
  id: string;
  app_id: string;
  channel_id: string;
  target: string;
  metadata: Record<string, unknown>;
  enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface DeliveriesTable {
  id: string;
  app_id: string;
  /** No foreign key: a delivery stays on record after its channel is deleted. */
  channel_id: string;
  provider: Provider;
  target: string;
  subject: string | null;
  text: string;
  html: string | null;
  metadata: Record<string, unknown>;
  status: Generated<DeliveryStatus>;
  provider_message_id: string | null;
  error: string | null;
  live: boolean;
  attempt_count: Generated<number>;
  idempotency_key: string | null;
  /** sha256 of the request an Idempotency-Key was first sent with. */
  request_hash: string | null;
  /** The x-request-id of the send, passed on to the provider. */
  request_id: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface DeliveryAttemptsTable {
  delivery_id: string;
  number: number;
  outcome: AttemptOutcome;
  error: string | null;
  duration_ms: number | null;
  at: Generated<Date>;
}

export type CommunicationDb = Kysely<CommunicationDatabase>;
export type ChannelRow = Selectable<ChannelsTable>;
export type RegistrationRow = Selectable<RegistrationsTable>;
export type DeliveryRow = Selectable<DeliveriesTable>;
export type AttemptRow = Selectable<DeliveryAttemptsTable>;
