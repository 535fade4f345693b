import { newId } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { CommunicationDb } from '../database.js';
import { insertDelivery, type NewDelivery } from './deliveries.js';

/**
 * Adds one send's data to the open digest of (app, template, recipient), opening one that flushes
 * in `windowSeconds` when there is none; in one transaction, the digest's row locked, so that a
 * flush in progress (which locks it too) never misses an item. A new digest stores `delivery`
 * (accepted, sent at the flush with every item): the delivery every send of the digest answers.
 */
export function addToDigest(
  db: CommunicationDb,
  key: { appId: string; templateId: string; recipient: string },
  send: Record<string, unknown>,
  data: Record<string, unknown>,
  windowSeconds: number,
  delivery: NewDelivery,
  idempotency: { key: string; hash: string } | null,
) {
  return db.transaction().execute(async (trx) => {
    const flushAt = new Date(Date.now() + windowSeconds * 1000);
    // A flush may close the open digest between the insert (which found it) and the select:
    // then the insert is tried once more, and opens a new one.
    const open = async () => {
      const opened = await trx
        .insertInto('digests')
        .values({
          id: newId(8, 'dg_'),
          app_id: key.appId,
          template_id: key.templateId,
          recipient: key.recipient,
          send: jsonb(send),
          delivery_id: delivery.id,
          flush_at: flushAt,
        })
        .onConflict((oc) =>
          oc
            .columns(['app_id', 'template_id', 'recipient'])
            .where('status', '=', 'open')
            .doNothing(),
        )
        .returning('id')
        .executeTakeFirst();
      if (opened) await insertDelivery(trx, { ...delivery, send_at: flushAt, scheduled: false });
      return trx
        .selectFrom('digests')
        .select(['id', 'flush_at', 'delivery_id'])
        .where('app_id', '=', key.appId)
        .where('template_id', '=', key.templateId)
        .where('recipient', '=', key.recipient)
        .where('status', '=', 'open')
        .forUpdate()
        .executeTakeFirst();
    };
    const digest = (await open()) ?? (await open());
    if (!digest)
      throw new Error(`The open digest of ${key.recipient} closed twice while joining it`);
    await trx
      .insertInto('digest_items')
      .values({ id: newId(10, 'dgi_'), digest_id: digest.id, data: jsonb(data) })
      .execute();
    const { count } = await trx
      .selectFrom('digest_items')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('digest_id', '=', digest.id)
      .executeTakeFirstOrThrow();
    const joined = {
      id: digest.id,
      flushAt: digest.flush_at,
      items: Number(count),
      deliveryId: digest.delivery_id as string,
    };
    // The same key joining concurrently: this insert fails (primary key), and everything with it.
    if (idempotency)
      await trx
        .insertInto('digest_keys')
        .values({
          app_id: key.appId,
          idempotency_key: idempotency.key,
          request_hash: idempotency.hash,
          digest_id: joined.id,
          delivery_id: joined.deliveryId,
          flush_at: joined.flushAt,
          items: joined.items,
        })
        .execute();
    return joined;
  });
}

/** The digested send an app made with this Idempotency-Key, if any. */
export function digestByKey(db: CommunicationDb, appId: string, key: string) {
  return db
    .selectFrom('digest_keys')
    .selectAll()
    .where('app_id', '=', appId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Open digests whose window has ended. */
export function dueDigests(db: CommunicationDb, limit: number) {
  return db
    .selectFrom('digests')
    .selectAll()
    .where('status', '=', 'open')
    .where('flush_at', '<=', sql<Date>`now()`)
    .orderBy('flush_at')
    .limit(limit)
    .execute();
}

export function digestItems(db: CommunicationDb, digestId: string) {
  return db
    .selectFrom('digest_items')
    .select('data')
    .where('digest_id', '=', digestId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Ends an open digest at its flush: its row locked (sends joining it wait), its items counted,
 * then deleted with them. `gone`: closed already; `changed`: items joined since `items` were read.
 */
export async function closeDigest(
  db: CommunicationDb,
  id: string,
  items?: number,
): Promise<'closed' | 'gone' | 'changed'> {
  const row = await db
    .selectFrom('digests')
    .select('id')
    .where('id', '=', id)
    .where('status', '=', 'open')
    .forUpdate()
    .executeTakeFirst();
  if (!row) return 'gone';
  if (items !== undefined) {
    const { count } = await db
      .selectFrom('digest_items')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('digest_id', '=', id)
      .executeTakeFirstOrThrow();
    if (Number(count) !== items) return 'changed';
  }
  await db.deleteFrom('digests').where('id', '=', id).execute();
  return 'closed';
}
