import { sql, type Generated, type Kysely, type Selectable } from '@platform/db';

export interface ItemsTable {
  id: string;
  name: string;
  amount: number;
  currency: string;
  provider: string | null;
  provider_ref: string | null;
  tags: string[];
  description: string | null;
  recurring: boolean;
  period: string | null;
  date: Date;
  category: string | null;
  service: string | null;
  stage_app: string | null;
  author: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CategoriesTable {
  id: string;
  name: string;
  description: string | null;
  color: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SyncJobsTable {
  id: string;
  provider: string;
  status: 'running' | 'completed' | 'failed';
  items_created: Generated<number>;
  items_updated: Generated<number>;
  error: string | null;
  from: string | null;
  to: string | null;
  project_id: string | null;
  started_at: Generated<Date>;
  completed_at: Date | null;
}

export interface BillingDatabase {
  items: ItemsTable;
  categories: CategoriesTable;
  sync_jobs: SyncJobsTable;
}

export type BillingDb = Kysely<BillingDatabase>;
export type ItemRow = Selectable<ItemsTable>;
export type CategoryRow = Selectable<CategoriesTable>;
export type SyncJobRow = Selectable<SyncJobsTable>;

export const SCHEMA = 'billing';

export const jsonb = <T>(value: T) => JSON.stringify(value) as unknown as T;

/** The filters of item lists and reports (spec 4.6). */
export interface ItemFilter {
  category?: string;
  provider?: string;
  service?: string;
  stageApp?: string;
  author?: string;
  recurring?: boolean;
  /** Items that have every one of these tags. */
  tags?: string[];
  currency?: string;
  from?: Date;
  to?: Date;
}

/** Items matching a filter: the one place the filters become SQL, for lists and reports alike. */
export function filteredItems(db: BillingDb, filter: ItemFilter) {
  let query = db.selectFrom('items');
  const exact = {
    category: filter.category,
    provider: filter.provider,
    service: filter.service,
    stage_app: filter.stageApp,
    author: filter.author,
    currency: filter.currency,
  } as const;
  for (const [column, value] of Object.entries(exact))
    if (value !== undefined) query = query.where(column as 'category', '=', value);
  if (filter.recurring !== undefined) query = query.where('recurring', '=', filter.recurring);
  if (filter.tags?.length) query = query.where(sql<boolean>`tags @> ${jsonb(filter.tags)}::jsonb`);
  if (filter.from) query = query.where('date', '>=', filter.from);
  if (filter.to) query = query.where('date', '<=', filter.to);
  return query;
}
