import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `communication` schema, as the migrations make them. */
export interface CommunicationDatabase {
  channels: ChannelsTable;
  registrations: RegistrationsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  templates: TemplatesTable;
  template_versions: TemplateVersionsTable;
  preferences: PreferencesTable;
  digests: DigestsTable;
  digest_items: DigestItemsTable;
  digest_keys: DigestKeysTable;
  inbox_messages: InboxMessagesTable;
  suppressions: SuppressionsTable;
}

export const PROVIDERS = ['smtp', 'slack', 'webhook', 'log', 'inbox'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const CHANNEL_STATUSES = ['active', 'disabled'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];
export const DELIVERY_STATUSES = [
  'accepted',
  'sent',
  'failed',
  'skipped',
  'bounced',
  'complained',
] as const;
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
  /** The person it is for (preferences, unsubscribe, the inbox): an email or an identity. */
  recipient: string | null;
  category: string | null;
  template_id: string | null;
  /** The template's version the message was rendered from. */
  template_version: number | null;
  locale: string | null;
  /** The Slack form: `{ text, blocks? }`, rendered. */
  slack: SlackForm | null;
  /** The channels in order (fallback), with those skipped and why; null: one channel. */
  route: RouteStep[] | null;
  /** A delayed send: not before this time. */
  send_at: Date | null;
  /** Delayed, not yet handed to the delivery job. */
  scheduled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SlackForm {
  text: string;
  blocks?: unknown[];
}

/** One channel of a delivery's route. */
export interface RouteStep {
  channelId: string;
  channel: string;
  provider: Provider;
  target: string;
  /** Why it was not tried (opted out, suppressed), or null. */
  skipped: string | null;
}

/** What a template version holds (the API's shape). */
export interface TemplateContent {
  schema: Record<string, unknown>;
  fallbackLocale: string;
  locales: Record<string, LocaleForm>;
  sampleData?: Record<string, unknown>;
  digest?: { windowSeconds: number; locales: Record<string, LocaleForm> };
}

export interface LocaleForm {
  subject?: string;
  text: string;
  html?: string;
  slack?: { text?: string; blocks?: unknown[] };
}

export interface TemplatesTable {
  id: string;
  app_id: string;
  name: string;
  category: string;
  version: number;
  content: TemplateContent;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface TemplateVersionsTable {
  template_id: string;
  version: number;
  content: TemplateContent;
  created_at: Generated<Date>;
}

export interface PreferencesTable {
  recipient: string;
  category: string;
  /** A channel's name or a provider (smtp, slack, webhook, inbox, log). */
  channel: string;
  enabled: boolean;
  updated_at: Generated<Date>;
}

export interface DigestsTable {
  id: string;
  app_id: string;
  template_id: string;
  recipient: string;
  /** The send that opened it (channels, to, locale, category): the digest goes out the same way. */
  send: Record<string, unknown>;
  status: Generated<'open' | 'flushed'>;
  delivery_id: string | null;
  flush_at: Date;
  created_at: Generated<Date>;
}

/** The Idempotency-Key of a send that joined a digest, and what it answered. */
export interface DigestKeysTable {
  app_id: string;
  idempotency_key: string;
  request_hash: string;
  digest_id: string;
  delivery_id: string;
  flush_at: Date;
  /** The digest's items once this send joined it. */
  items: number;
  created_at: Generated<Date>;
}

export interface DigestItemsTable {
  id: string;
  digest_id: string;
  data: Record<string, unknown>;
  created_at: Generated<Date>;
}

export interface InboxMessagesTable {
  id: string;
  recipient: string;
  app_id: string;
  delivery_id: string;
  category: string | null;
  subject: string | null;
  text: string;
  html: string | null;
  read_at: Date | null;
  archived_at: Date | null;
  seq: Generated<string>;
  created_at: Generated<Date>;
}

export interface SuppressionsTable {
  address: string;
  reason: string;
  delivery_id: string | null;
  created_at: Generated<Date>;
}

export interface DeliveryAttemptsTable {
  delivery_id: string;
  number: number;
  outcome: AttemptOutcome;
  error: string | null;
  duration_ms: number | null;
  /** The channel tried (a route may try several); null before issue 41. */
  channel_id: string | null;
  at: Generated<Date>;
}

export type CommunicationDb = Kysely<CommunicationDatabase>;
export type ChannelRow = Selectable<ChannelsTable>;
export type RegistrationRow = Selectable<RegistrationsTable>;
export type DeliveryRow = Selectable<DeliveriesTable>;
export type AttemptRow = Selectable<DeliveryAttemptsTable>;
export type TemplateRow = Selectable<TemplatesTable>;
export type InboxRow = Selectable<InboxMessagesTable>;
