import { badRequest, parseInstant, stampsAt } from '@platform/core';
import type { BillingConfig } from './config.js';
import type { CategoryRow, ItemChanges, ItemRow, NewItem, SyncJobRow } from './database.js';
import type { ItemFilter } from './repositories/items.js';
import type { Category } from './schemas/categories.js';
import type { Item, ItemFilterParams, ItemInput, ItemUpdate } from './schemas/items.js';
import type { SyncJob } from './schemas/sync.js';

// Rows to API shapes and API input to columns: shared by the route files, which never import
// each other.

export const toItem = (row: ItemRow): Item => ({
  id: row.id,
  name: row.name,
  amount: Number(row.amount),
  currency: row.currency,
  provider: row.provider,
  providerRef: row.provider_ref,
  tags: row.tags,
  description: row.description,
  recurring: row.recurring,
  period: row.period,
  date: row.date.toISOString(),
  category: row.category,
  service: row.service,
  stageApp: row.stage_app,
  author: row.author,
  ...stampsAt(row.created_at, row.updated_at),
});

export const toCategory = (row: CategoryRow): Category => ({
  id: row.id,
  name: row.name,
  description: row.description,
  color: row.color?.toLowerCase() ?? null,
  ...stampsAt(row.created_at, row.updated_at),
});

export const toSyncJob = (row: SyncJobRow): SyncJob => ({
  id: row.id,
  provider: row.provider,
  status: row.status,
  itemsCreated: row.items_created,
  itemsUpdated: row.items_updated,
  error: row.error,
  from: row.from,
  to: row.to,
  projectId: row.project_id,
  startedAt: row.started_at.toISOString(),
  completedAt: row.completed_at?.toISOString() ?? null,
});

/** The item filters of a query; `tags` is a comma-separated list. */
export const toItemFilter = (query: ItemFilterParams): ItemFilter => ({
  ...query,
  tags: query.tags
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean),
});

function checkPeriod(recurring: boolean, period: string | null) {
  if (recurring && !period) throw badRequest('period is required when recurring is true');
}

/** The columns a create and an update take as sent (undefined ones are left alone). */
const sentColumns = (input: ItemUpdate) => ({
  provider: input.provider,
  provider_ref: input.providerRef,
  tags: input.tags && [...new Set(input.tags)],
  description: input.description,
  period: input.period,
  category: input.category,
  service: input.service,
  stage_app: input.stageApp,
  author: input.author,
});

/** Columns of a new item: the defaults are the configured currency, not recurring, now. */
export function newItem(id: string, input: ItemInput, config: BillingConfig): NewItem {
  checkPeriod(input.recurring ?? false, input.period ?? null);
  return {
    id,
    ...sentColumns(input),
    name: input.name,
    amount: input.amount,
    currency: input.currency?.toUpperCase() ?? config.currency,
    recurring: input.recurring ?? false,
    date: input.date === undefined ? new Date() : parseInstant(input.date, 'date', 'from'),
  };
}

/** Columns of the fields sent in a PUT, checked as a whole with the item's `current` ones. */
export function itemChanges(input: ItemUpdate, current: ItemRow): ItemChanges {
  checkPeriod(
    input.recurring ?? current.recurring,
    input.period !== undefined ? input.period : current.period,
  );
  return {
    ...sentColumns(input),
    name: input.name,
    amount: input.amount,
    currency: input.currency?.toUpperCase(),
    recurring: input.recurring,
    date: input.date === undefined ? undefined : parseInstant(input.date, 'date', 'from'),
  };
}
