import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `ledger` schema, as the migrations make them. */
export interface LedgerDatabase {
  events: EventsTable;
  chain_head: ChainHeadTable;
  checkpoints: CheckpointsTable;
  policies: PoliciesTable;
  classifications: ClassificationsTable;
  signed_heads: SignedHeadsTable;
  sinks: SinksTable;
}

export interface EventsTable {
  /** Position in the chain: 1 for the first event ever. */
  seq: number;
  id: string;
  action: string;
  actor: string | null;
  resource: string | null;
  service: string | null;
  metadata: Record<string, unknown>;
  details: Record<string, unknown>;
  timestamp: Date;
  prev_hash: string;
  personal_hash: string;
  hash: string;
  anonymized_at: Date | null;
}

/** One row (id 1): the last link of the chain. */
export interface ChainHeadTable {
  id: number;
  seq: number;
  hash: string;
}

/** Where retention removed events: the event numbered next_seq follows prev_hash and comes after after_hash. */
export interface CheckpointsTable {
  next_seq: number;
  after_hash: string;
  prev_hash: string;
  policy: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** The chain head at `seq` (its `hash`), signed at `signed_at` by the key `key_id` (README "Signed chain heads"). */
export interface SignedHeadsTable {
  key_id: string;
  seq: number;
  hash: string;
  signed_at: Date;
  /** Ed25519 signature of the statement, base64. */
  signature: string;
}

export interface PoliciesTable {
  id: string;
  name: string;
  retention_days: number;
  scope: string;
  service: string | null;
  action: 'delete' | 'anonymize';
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  last_applied_at: Date | null;
  last_affected: number | null;
}

export interface ClassificationsTable {
  id: string;
  service_id: string;
  field: string;
  level: string;
  justification: string;
  ppi_category: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** The ledger's schema, or a transaction on it. */
export interface SinksTable {
  id: string;
  name: string;
  kind: 'webhook' | 'syslog';
  url: string | null;
  host: string | null;
  port: number | null;
  tls: Generated<boolean>;
  format: Generated<'ndjson' | 'ocsf'>;
  secret_encrypted: string | null;
  enabled: Generated<boolean>;
  cursor: Generated<number>;
  failures: Generated<number>;
  last_error: Generated<string | null>;
  next_attempt_at: Generated<Date>;
  delivered_at: Generated<Date | null>;
  /** When the last signed head the receiver took was signed: later ones are sent next. */
  heads_after: Generated<Date>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type LedgerDb = Kysely<LedgerDatabase>;
export type SinkRow = Selectable<SinksTable>;
export type EventRow = Selectable<EventsTable>;
export type ChainHead = Pick<Selectable<ChainHeadTable>, 'seq' | 'hash'>;
export type PolicyRow = Selectable<PoliciesTable>;
export type ClassificationRow = Selectable<ClassificationsTable>;
export type SignedHeadRow = Selectable<SignedHeadsTable>;
