import type { CommunicationDb } from '../database.js';

/** The suppressed addresses among `addresses` (lower case), with why. */
export function suppressedAmong(db: CommunicationDb, addresses: string[]) {
  if (addresses.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('suppressions')
    .selectAll()
    .where(
      'address',
      'in',
      addresses.map((a) => a.toLowerCase()),
    )
    .execute();
}

export function listSuppressions(db: CommunicationDb, page: { limit: number; offset: number }) {
  return db
    .selectFrom('suppressions')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('address')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function suppress(
  db: CommunicationDb,
  row: { address: string; reason: string; delivery_id: string | null },
) {
  await db
    .insertInto('suppressions')
    .values({ ...row, address: row.address.toLowerCase() })
    .onConflict((oc) => oc.column('address').doNothing())
    .execute();
}

/** Removes a suppression; whether there was one. */
export async function unsuppress(db: CommunicationDb, address: string) {
  const gone = await db
    .deleteFrom('suppressions')
    .where('address', '=', address.toLowerCase())
    .returning('address')
    .executeTakeFirst();
  return gone !== undefined;
}

/** A delivery by its id or its provider message id (the SMTP Message-ID). */
export function deliveryByReference(
  db: CommunicationDb,
  ref: { deliveryId?: string; messageId?: string },
) {
  let query = db.selectFrom('deliveries').selectAll();
  if (ref.deliveryId !== undefined) query = query.where('id', '=', ref.deliveryId);
  else if (ref.messageId !== undefined)
    query = query.where('provider_message_id', 'in', [
      ref.messageId,
      `<${ref.messageId.replace(/^<|>$/g, '')}>`,
    ]);
  else return Promise.resolve(undefined);
  return query.executeTakeFirst();
}

/** A provider's word on a sent delivery: bounced or complained, with why. */
export async function markDelivery(
  db: CommunicationDb,
  id: string,
  status: 'bounced' | 'complained',
  error: string,
) {
  await db
    .updateTable('deliveries')
    .set({ status, error, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', 'in', ['sent', 'accepted', 'bounced'])
    .execute();
}
