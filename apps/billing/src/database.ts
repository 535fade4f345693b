import type { Generated, Insertable, Kysely, Selectable, Updateable } from '@platform/db';
import type { AlertsTable, AnomaliesTable, BudgetsTable } from './database-budgets.js';

export * from './database-budgets.js';

/** The tables of the `billing` schema, as the migrations make them. */
export interface BillingDatabase {
  items: ItemsTable;
  categories: CategoriesTable;
  sync_jobs: SyncJobsTable;
  focus_rows: FocusRowsTable;
  focus_skipped: FocusSkippedTable;
  catalog_services: CatalogServicesTable;
  catalog_snapshot: CatalogSnapshotTable;
  owner_rules: OwnerRulesTable;
  allocation_rules: AllocationRulesTable;
  budgets: BudgetsTable;
  anomalies: AnomaliesTable;
  alerts: AlertsTable;
}

export interface ItemsTable {
  id: string;
  name: string;
  /** bigint cents; pg answers bigint as text, hence `Number()` when read. */
  amount: number;
  currency: string;
  provider: string | null;
  provider_ref: string | null;
  tags: Generated<string[]>;
  description: string | null;
  recurring: Generated<boolean>;
  period: string | null;
  date: Date;
  category: string | null;
  service: string | null;
  stage_app: string | null;
  author: string | null;
  /** The exact amount in cents (numeric, answered as text) when the source had sub-cent digits. */
  exact_amount: string | null;
  /** FinOps columns of a FOCUS row (by their FOCUS names) that no other column holds. */
  dimensions: Generated<Record<string, unknown>>;
  /** The adapter whose sync created the item (focus, openai, anthropic); null: made by hand. */
  source: string | null;
  /**
   * Who made it: an email, `key:<name>` for a team key; a synced item, whoever started the sync.
   * null: no one (made before ownership, or with authentication off): admins only.
   */
  created_by: string | null;
  /** The team (a catalog owner) whose members may change it too. */
  team: string | null;
  /** The catalog service id the item resolves to (null: unmatched), its system id and owner name. */
  catalog_service: string | null;
  catalog_system: string | null;
  catalog_owner: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Billing's last snapshot of the catalog's services (kept while the catalog is off). */
export interface CatalogServicesTable {
  id: string;
  name: string;
  /** The system's id and name; the owner's name. */
  system: string | null;
  system_name: string | null;
  owner: string | null;
}

/** One row (id `catalog`): when the snapshot was fetched, the last attempt and its error. */
export interface CatalogSnapshotTable {
  id: string;
  fetched_at: Date | null;
  attempted_at: Date | null;
  error: string | null;
  services: Generated<number>;
}

/** Items matching every condition given resolve to `target` (a catalog service id). */
export interface OwnerRulesTable {
  id: string;
  priority: number;
  provider: string | null;
  service: string | null;
  focus_column: string | null;
  focus_value: string | null;
  tag_key: string | null;
  tag_value: string | null;
  target: string;
  description: string | null;
  created_by: string | null;
  team: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** What a selector of allocation rules matches; every field given must hold. */
export interface SpendSelector {
  catalogService?: string;
  provider?: string;
  service?: string;
  tag?: string;
}

export interface AllocationRulesTable {
  id: string;
  name: string;
  priority: number;
  selector: SpendSelector;
  method: 'fixed' | 'proportional';
  /** fixed: catalog service ids and their percentages (adding to 100). */
  shares: Generated<Array<{ service: string; percent: number }>>;
  /** proportional: the items whose spend per catalog service gives the proportions. */
  basis: SpendSelector | null;
  description: string | null;
  created_by: string | null;
  team: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CategoriesTable {
  id: string;
  name: string;
  description: string | null;
  color: string | null;
  /** Who made it and its team, as on items. */
  created_by: string | null;
  team: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export const SYNC_JOB_STATUSES = ['running', 'completed', 'failed'] as const;
export type SyncJobStatus = (typeof SYNC_JOB_STATUSES)[number];

export interface SyncJobsTable {
  id: string;
  provider: string;
  status: SyncJobStatus;
  items_created: Generated<number>;
  items_updated: Generated<number>;
  error: string | null;
  from: string | null;
  to: string | null;
  project_id: string | null;
  started_at: Generated<Date>;
  completed_at: Date | null;
  rows_read: Generated<number>;
  rows_written: Generated<number>;
  rows_skipped: Generated<number>;
  /** The first skipped rows, a preview: `[{ row, reason }]` (focus_skipped has them all). */
  skipped: Generated<SkippedRow[]>;
  /** Items of earlier FOCUS imports that the new file replaced (removed). */
  items_deleted: Generated<number>;
  /** An uploaded file: when all its rows were staged (the upload answered 202). */
  staged_at: Date | null;
  /** A FOCUS sync: its file's header (the staged rows' dimensions name columns by their place). */
  focus_header: string[] | null;
  /** Who started it (an email, `key:<name>`); the items it creates record it as their creator. */
  created_by: string | null;
}

export interface SkippedRow {
  row: number;
  reason: string;
}

/** Every skipped row of a sync job. */
export interface FocusSkippedTable extends SkippedRow {
  sync_job_id: string;
}

/**
 * A FOCUS row read by a sync under way: an item to be, before duplicates are summed. Written by
 * COPY as text (migration 2026-12-23-focus-copy), cast by the merge: `exact_amount` numeric,
 * `date` an ISO timestamp, `tags` a JSON array, `dimensions` a JSON object keyed by the column's
 * place in the header (sync_jobs.focus_header), ChargeDescription left out (it is `description`,
 * whole).
 */
export interface FocusRowsTable {
  sync_job_id: string;
  row: number;
  id: string;
  provider: string;
  provider_ref: string;
  /** null: the service, else the description (rows staged before 2026-12-23 have it). */
  name: string | null;
  exact_amount: string;
  currency: string;
  date: string;
  description: string | null;
  category: string | null;
  service: string | null;
  recurring: boolean;
  period: string | null;
  tags: string;
  dimensions: string;
}

export type BillingDb = Kysely<BillingDatabase>;
export type ItemRow = Selectable<ItemsTable>;
export type NewItem = Omit<Insertable<ItemsTable>, 'created_at' | 'updated_at'>;
export type ItemChanges = Omit<Updateable<ItemsTable>, 'id' | 'created_at' | 'updated_at'>;
export type CategoryRow = Selectable<CategoriesTable>;
export type SyncJobRow = Selectable<SyncJobsTable>;
export type NewFocusRow = Insertable<FocusRowsTable>;

export type Page = { limit: number; offset: number };
