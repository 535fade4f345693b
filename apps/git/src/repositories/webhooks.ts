import { jsonb, sql } from '@platform/db';
import type { GitDb, WebhookEventsTable, WebhooksTable } from '../database.js';

export const insertWebhook = (db: GitDb, row: Omit<WebhooksTable, 'created_at' | 'updated_at'>) =>
  db.insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();

export function listWebhooks(db: GitDb, repositoryId: string, url?: string) {
  let query = db.selectFrom('webhooks').selectAll().where('repository_id', '=', repositoryId);
  if (url !== undefined) query = query.where('url', '=', url);
  return query.orderBy('created_at').execute();
}

export const findWebhook = (db: GitDb, id: string) =>
  db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();

export const deleteWebhook = (db: GitDb, id: string) =>
  db.deleteFrom('webhooks').where('id', '=', id).execute();

/** Stores a delivery once: undefined when its delivery id or its raw body was stored before. */
export const insertEvent = (db: GitDb, row: Omit<WebhookEventsTable, 'created_at'>) =>
  db
    .insertInto('webhook_events')
    .values({ ...row, payload: jsonb(row.payload) })
    .onConflict((c) => c.doNothing())
    .returningAll()
    .executeTakeFirst();

/** The event stored first for a delivery id or a raw body (the delivery id's when both exist). */
export const firstDelivery = (db: GitDb, deliveryId: string, bodySha256: string) =>
  db
    .selectFrom('webhook_events')
    .selectAll()
    .where((eb) => eb.or([eb('delivery_id', '=', deliveryId), eb('body_sha256', '=', bodySha256)]))
    .orderBy(sql`delivery_id = ${deliveryId}`, 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();

export function listEvents(
  db: GitDb,
  filter: { repositoryId?: string; event?: string },
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom('webhook_events').selectAll();
  if (filter.repositoryId !== undefined)
    query = query.where('repository_id', '=', filter.repositoryId);
  if (filter.event !== undefined) query = query.where('event', '=', filter.event);
  return query
    .orderBy('created_at', 'desc')
    .orderBy(sql`id`, 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
