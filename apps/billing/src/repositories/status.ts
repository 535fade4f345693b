import { sql } from '@platform/db';
import type { BillingDb } from '../database.js';

/** How many items, categories and sync jobs are stored, and the sum of the items in `currency`. */
export async function countStored(db: BillingDb, currency: string) {
  const count = (table: 'items' | 'categories' | 'sync_jobs') =>
    db
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow();
  const [items, categories, syncJobs, total] = await Promise.all([
    count('items'),
    count('categories'),
    count('sync_jobs'),
    db
      .selectFrom('items')
      .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: items.n,
    categories: categories.n,
    syncJobs: syncJobs.n,
    totalAmount: Number(total.total),
  };
}
