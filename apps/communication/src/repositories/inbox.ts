import { newId } from '@platform/core';
import { sql } from '@platform/db';
import type { CommunicationDb, InboxRow } from '../database.js';

/** The inbox message of a delivery (once: a retried run finds the first). */
export async function insertInboxMessage(
  db: CommunicationDb,
  row: Omit<InboxRow, 'id' | 'seq' | 'created_at' | 'read_at' | 'archived_at'>,
): Promise<string> {
  await db
    .insertInto('inbox_messages')
    .values({ id: newId(10, 'msg_'), ...row, recipient: row.recipient.toLowerCase() })
    .onConflict((oc) => oc.column('delivery_id').doNothing())
    .execute();
  const saved = await db
    .selectFrom('inbox_messages')
    .select('id')
    .where('delivery_id', '=', row.delivery_id)
    .executeTakeFirstOrThrow();
  return saved.id;
}

export interface InboxFilter {
  status?: 'unread' | 'read' | 'archived' | 'all';
  /** Only messages after this sequence number (the stream's cursor). */
  after?: string;
}

/** A recipient's messages, newest first; archived ones only when asked for. */
export function listInbox(
  db: CommunicationDb,
  recipient: string,
  filter: InboxFilter,
  page: { limit: number; offset: number },
) {
  let query = db
    .selectFrom('inbox_messages')
    .selectAll()
    .where('recipient', '=', recipient.toLowerCase());
  const status = filter.status ?? 'all';
  if (status === 'archived') query = query.where('archived_at', 'is not', null);
  else query = query.where('archived_at', 'is', null);
  if (status === 'unread') query = query.where('read_at', 'is', null);
  if (status === 'read') query = query.where('read_at', 'is not', null);
  if (filter.after !== undefined) query = query.where('seq', '>', filter.after);
  return query.orderBy('seq', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function unreadCount(db: CommunicationDb, recipient: string) {
  const { count } = await db
    .selectFrom('inbox_messages')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('recipient', '=', recipient.toLowerCase())
    .where('read_at', 'is', null)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export function findInboxMessage(db: CommunicationDb, id: string) {
  return db.selectFrom('inbox_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Marks a message read or unread, archived or not. */
export function markInboxMessage(
  db: CommunicationDb,
  id: string,
  changes: { read?: boolean; archived?: boolean },
) {
  const set: Record<string, unknown> = {};
  if (changes.read !== undefined) set.read_at = changes.read ? sql`coalesce(read_at, now())` : null;
  if (changes.archived !== undefined)
    set.archived_at = changes.archived ? sql`coalesce(archived_at, now())` : null;
  return db
    .updateTable('inbox_messages')
    .set(set)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The highest sequence number of a recipient's messages ('0' for none): where a stream starts. */
export async function lastSeq(db: CommunicationDb, recipient: string) {
  const row = await db
    .selectFrom('inbox_messages')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('recipient', '=', recipient.toLowerCase())
    .executeTakeFirst();
  return String(row?.seq ?? '0');
}

const MESSAGES = sql.table('communication.inbox_messages');

/**
 * The live streams' one query: for each recipient, the unread count and the messages not archived
 * with `seq` above `after`, oldest first, at most `limit` each.
 */
export async function inboxFeed(
  db: CommunicationDb,
  wanted: Array<{ recipient: string; after: number }>,
  limit: number,
): Promise<Array<{ recipient: string; unread: number; messages: InboxRow[] }>> {
  const { rows } = await sql<{
    recipient: string;
    unread: string | number;
    messages: Array<Record<string, unknown>>;
  }>`select r.recipient,
      (select count(*) from ${MESSAGES} u where u.recipient = r.recipient
        and u.read_at is null and u.archived_at is null) as unread,
      coalesce((select json_agg(m order by m.seq) from (select * from ${MESSAGES} m
        where m.recipient = r.recipient and m.seq > r.after and m.archived_at is null
        order by m.seq limit ${limit}) m), '[]'::json) as messages
    from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as r(recipient text, after bigint)`.execute(
    db,
  );
  const date = (value: unknown) => (value == null ? null : new Date(value as string));
  return rows.map((r) => ({
    recipient: r.recipient,
    unread: Number(r.unread),
    messages: r.messages.map(
      (m) =>
        ({
          ...m,
          seq: String(m.seq),
          read_at: date(m.read_at),
          archived_at: date(m.archived_at),
          created_at: date(m.created_at),
        }) as InboxRow,
    ),
  }));
}
