import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `inference` schema, as the migrations make them. */
export interface InferenceDatabase {
  providers: ProvidersTable;
  models: ModelsTable;
  requests: RequestsTable;
  key_limits: KeyLimitsTable;
  key_counters: KeyCountersTable;
  provider_cooldowns: ProviderCooldownsTable;
  cache_entries: CacheEntriesTable;
}

export interface ProvidersTable {
  id: string;
  name: string;
  type: string;
  default_model: string;
  env_var: string | null;
  base_url: string | null;
  /** Its share of its type's calls routed by model name (null: not balanced). */
  weight: Generated<number | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ModelsTable {
  provider_id: string;
  name: string;
  created_at: Generated<Date>;
}

export interface RequestsTable {
  id: string;
  provider_id: string | null;
  provider: string | null;
  model: string | null;
  kind: string;
  status: string;
  input_tokens: number | null;
  output_tokens: number | null;
  estimated: boolean;
  attempts: number;
  duration_ms: number;
  ttft_ms: number | null;
  cost_micros: string | null;
  error: string | null;
  request_id: string | null;
  app: string | null;
  /** Who made the call (`creatorOf` the caller); null for calls logged before issue 31. */
  created_by: string | null;
  /** The platform API key that made the call (`request.identity.keyId`); null otherwise. */
  key_id: Generated<string | null>;
  /** Answered from the response cache (no provider called, no cost). */
  cached: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface KeyLimitsTable {
  key_id: string;
  budget_micros: string | null;
  period: string | null;
  rpm: number | null;
  tpm: number | null;
  models: string[] | null;
  cache_ttl_s: number | null;
  updated_by: string | null;
  updated_at: Generated<Date>;
}

export interface KeyCountersTable {
  key_id: string;
  window: string;
  starts_at: Date;
  requests: Generated<number>;
  tokens: Generated<string>;
  cost_micros: Generated<string>;
}

export interface ProviderCooldownsTable {
  provider_id: string;
  until: Date;
  reason: string | null;
}

export interface CacheEntriesTable {
  key: string;
  value: unknown;
  expires_at: Date;
  created_at: Generated<Date>;
}

export type InferenceDb = Kysely<InferenceDatabase>;
export type ProviderRow = Selectable<ProvidersTable>;
export type ModelRow = Selectable<ModelsTable>;
export type RequestRow = Selectable<RequestsTable>;
export type KeyLimitsRow = Selectable<KeyLimitsTable>;
