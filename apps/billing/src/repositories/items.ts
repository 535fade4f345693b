import type { Ownership } from '@platform/core';
import { jsonb, sql, type RawBuilder } from '@platform/db';
import type { SyncedItem } from '../domain/adapters/adapter.js';
import type { BillingDb, ItemChanges, ItemRow, ItemsTable, NewItem, Page } from '../database.js';

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

type ItemKey = { id: string } | { provider: string; provider_ref: string };

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

/** A page of items, newest first. */
export function listItems(db: BillingDb, filter: ItemFilter, page: Page): Promise<ItemRow[]> {
  return filteredItems(db, filter)
    .selectAll()
    .orderBy('date', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The item with this id, or with this provider's reference. */
export function findItem(db: BillingDb, key: ItemKey): Promise<ItemRow | undefined> {
  const items = db.selectFrom('items').selectAll();
  return items.where((eb) => eb.and(key)).executeTakeFirst();
}

/**
 * Who owns the item with this id: what the `owner` rule asks before validation, so `id` is
 * whatever the path held. Undefined when there is no such item (the handler answers 404).
 */
export async function findItemOwnership(
  db: BillingDb,
  id: unknown,
): Promise<Ownership | undefined> {
  if (typeof id !== 'string' || id === '') return undefined;
  const row = await db
    .selectFrom('items')
    .select(['created_by', 'team'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { createdBy: row.created_by, team: row.team };
}

/** Inserts an item; a unique violation when (provider, provider_ref) is taken. */
export function insertItem(db: BillingDb, item: NewItem): Promise<ItemRow> {
  const values = { ...item, tags: item.tags && jsonb(item.tags) };
  return db.insertInto('items').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Changes the columns given (undefined ones are left alone); undefined when the item is gone. */
export function updateItem(db: BillingDb, id: string, changes: ItemChanges) {
  return db
    .updateTable('items')
    .set({ ...changes, tags: changes.tags && jsonb(changes.tags), updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function deleteItem(db: BillingDb, id: string): Promise<ItemRow | undefined> {
  return db.deleteFrom('items').where('id', '=', id).returningAll().executeTakeFirst();
}

/**
 * Items whose text contains `term` (lower case), case-insensitively: name matches first (exact,
 * prefix, contains), then the rest; newest first within a rank.
 */
export function searchItems(db: BillingDb, term: string, limit: number): Promise<ItemRow[]> {
  const text = sql`lower(concat_ws(' ', name, description, provider, provider_ref, category, service, tags::text))`;
  return db
    .selectFrom('items')
    .selectAll()
    .where(sql<boolean>`strpos(${text}, ${term}) > 0`)
    .orderBy(
      sql`case when lower(name) = ${term} then 0 when starts_with(lower(name), ${term}) then 1
               when strpos(lower(name), ${term}) > 0 then 2 else 3 end`,
    )
    .orderBy('date', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** What a sync overwrites on an item it finds again; its tags, category and service stay. */
export const SYNC_OVERWRITES = [
  'name',
  'amount',
  'exact_amount',
  'currency',
  'description',
  'date',
] as const satisfies ReadonlyArray<keyof ItemsTable>;
/** A FOCUS import overwrites its recurrence and dimensions too. */
export const FOCUS_OVERWRITES = [
  ...SYNC_OVERWRITES,
  'recurring',
  'period',
  'dimensions',
] as const satisfies ReadonlyArray<keyof ItemsTable>;

/** The `do update set` of an upsert: these columns from the row proposed, and updated_at now. */
export function overwriteWithExcluded<C extends keyof ItemsTable>(columns: readonly C[]) {
  const set = Object.fromEntries(columns.map((c) => [c, sql.ref(`excluded.${c}`)]));
  // A column takes the proposed row's value of that same column: its type, whatever it is.
  return { ...set, updated_at: sql<Date>`now()` } as Record<C, RawBuilder<never>> & {
    updated_at: RawBuilder<Date>;
  };
}

/**
 * Upserts a provider's items by (provider, provider_ref): new ones are tagged `synced` (source:
 * the provider) and made by `createdBy` (who started the sync, or null), known ones get the
 * provider's name, amount, currency, description and date (their creator and team stay).
 * Answers the counts as a sync job stores them. Run it in a transaction (completeSyncJob does), so
 * a sync stores all or nothing.
 */
export async function upsertProviderItems(
  trx: BillingDb,
  provider: string,
  items: Array<SyncedItem & { id: string }>,
  createdBy: string | null,
) {
  let created = 0;
  let updated = 0;
  // One statement per item: a provider may report one reference twice, which a single
  // multi-row upsert refuses ("cannot affect row a second time").
  for (const { providerRef, exactAmount, ...item } of items) {
    const row = await trx
      .insertInto('items')
      .values({
        ...item,
        exact_amount: exactAmount,
        provider,
        provider_ref: providerRef,
        tags: jsonb(['synced']),
        source: provider,
        created_by: createdBy,
      })
      .onConflict((oc) =>
        oc
          .columns(['provider', 'provider_ref'])
          .where('provider_ref', 'is not', null)
          .doUpdateSet(overwriteWithExcluded(SYNC_OVERWRITES)),
      )
      .returning(sql<boolean>`xmax = 0`.as('inserted'))
      .executeTakeFirstOrThrow();
    if (row.inserted) created += 1;
    else updated += 1;
  }
  return { items_created: created, items_updated: updated };
}
