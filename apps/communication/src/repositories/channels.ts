import { findByIdOrName } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type {
  ChannelRow,
  ChannelStatus,
  CommunicationDb,
  Provider,
  StoredConfig,
} from '../database.js';

export interface NewChannel {
  id: string;
  name: string;
  provider: Provider;
  description: string | null;
  config: StoredConfig;
}

export interface ChannelChanges {
  status?: ChannelStatus;
  description?: string | null;
  config?: StoredConfig;
}

/** By name in any case, then id. */
export function listChannels(
  db: CommunicationDb,
  filter: { status?: ChannelStatus },
  page: { limit: number; offset: number },
): Promise<ChannelRow[]> {
  let query = db.selectFrom('channels').selectAll();
  if (filter.status) query = query.where('status', '=', filter.status);
  return query
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The channel with exactly that id, else the one with that name in any case; NOT_FOUND otherwise. */
export const findChannel = (db: CommunicationDb, idOrName: string) =>
  findByIdOrName(db, 'channels', idOrName, 'Channel');

/** The id of the channel with that id or name, or undefined. */
export async function channelIdOf(db: CommunicationDb, idOrName: string) {
  const row = await db
    .selectFrom('channels')
    .select('id')
    .where((eb) =>
      eb.or([eb('id', '=', idOrName), eb(sql`lower(name)`, '=', idOrName.toLowerCase())]),
    )
    .orderBy(sql`id = ${idOrName}`, 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export function insertChannel(db: CommunicationDb, channel: NewChannel): Promise<ChannelRow> {
  return db
    .insertInto('channels')
    .values({ ...channel, config: jsonb(channel.config) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes the fields given; undefined when the channel is gone. */
export function updateChannel(
  db: CommunicationDb,
  id: string,
  changes: ChannelChanges,
): Promise<ChannelRow | undefined> {
  return db
    .updateTable('channels')
    .set({
      status: changes.status,
      description: changes.description,
      config: changes.config && jsonb(changes.config),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the channel and returns it as it was; undefined when it is gone already. */
export function deleteChannel(db: CommunicationDb, id: string): Promise<ChannelRow | undefined> {
  return db.deleteFrom('channels').where('id', '=', id).returningAll().executeTakeFirst();
}

/** The apps registered on a channel (what keeps it from being deleted), up to `limit`. */
export async function appsOnChannel(db: CommunicationDb, channelId: string, limit = 10) {
  const rows = await db
    .selectFrom('registrations')
    .select('app_id')
    .where('channel_id', '=', channelId)
    .orderBy('app_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.app_id);
}

export function channelById(db: CommunicationDb, id: string): Promise<ChannelRow | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
}
