import type { Generated, Insertable, Kysely, Selectable, Updateable } from '@platform/db';

/** The tables of the `billing` schema, as the migrations make them. */
export interface BillingDatabase {
  items: ItemsTable;
  categories: CategoriesTable;
  sync_jobs: SyncJobsTable;
  focus_rows: FocusRowsTable;
  focus_skipped: FocusSkippedTable;
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

/** A FOCUS row read by a sync under way: an item to be, before duplicates are summed. */
export interface FocusRowsTable {
  sync_job_id: string;
  row: number;
  id: string;
  provider: string;
  provider_ref: string;
  name: string;
  exact_amount: string;
  currency: string;
  date: Date;
  description: string | null;
  category: string | null;
  service: string | null;
  recurring: boolean;
  period: string | null;
  tags: string[];
  dimensions: Record<string, unknown>;
}

export type BillingDb = Kysely<BillingDatabase>;
export type ItemRow = Selectable<ItemsTable>;
export type NewItem = Omit<Insertable<ItemsTable>, 'created_at' | 'updated_at'>;
export type ItemChanges = Omit<Updateable<ItemsTable>, 'id' | 'created_at' | 'updated_at'>;
export type CategoryRow = Selectable<CategoriesTable>;
export type SyncJobRow = Selectable<SyncJobsTable>;
export type NewFocusRow = Insertable<FocusRowsTable>;

export type Page = { limit: number; offset: number };
