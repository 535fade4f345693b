import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `inference` schema, as the migrations make them. */
export interface InferenceDatabase {
  providers: ProvidersTable;
  models: ModelsTable;
  requests: RequestsTable;
}

export interface ProvidersTable {
  id: string;
  name: string;
  type: string;
  default_model: string;
  env_var: string | null;
  base_url: string | null;
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
  created_at: Generated<Date>;
}

export type InferenceDb = Kysely<InferenceDatabase>;
export type ProviderRow = Selectable<ProvidersTable>;
export type ModelRow = Selectable<ModelsTable>;
export type RequestRow = Selectable<RequestsTable>;
