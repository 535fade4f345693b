import { jsonb, sql } from '@platform/db';
import type { CommunicationDb, RegistrationRow } from '../database.js';

export interface NewRegistration {
  id: string;
  app_id: string;
  channel_id: string;
  target: string;
  metadata: Record<string, unknown>;
}

export interface RegistrationChanges {
  enabled?: boolean;
  target?: string;
  metadata?: Record<string, unknown>;
}

/** An app's registrations, newest first; `channelId` (an id) keeps those of one channel. */
export function listRegistrations(
  db: CommunicationDb,
  appId: string,
  filter: { channelId?: string },
  page: { limit: number; offset: number },
): Promise<RegistrationRow[]> {
  let query = db.selectFrom('registrations').selectAll().where('app_id', '=', appId);
  if (filter.channelId !== undefined) query = query.where('channel_id', '=', filter.channelId);
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * An app's registration by its id, or else by its channel's id or name (one registration per app
 * and channel), in one query.
 */
export function findRegistration(
  db: CommunicationDb,
  appId: string,
  ref: string,
): Promise<RegistrationRow | undefined> {
  return db
    .selectFrom('registrations as r')
    .innerJoin('channels as c', 'c.id', 'r.channel_id')
    .selectAll('r')
    .where('r.app_id', '=', appId)
    .where((eb) =>
      eb.or([
        eb('r.id', '=', ref),
        eb('c.id', '=', ref),
        eb(sql`lower(c.name)`, '=', ref.toLowerCase()),
      ]),
    )
    .orderBy(sql`r.id = ${ref}`, 'desc')
    .orderBy(sql`c.id = ${ref}`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function registrationOf(
  db: CommunicationDb,
  appId: string,
  channelId: string,
): Promise<RegistrationRow | undefined> {
  return db
    .selectFrom('registrations')
    .selectAll()
    .where('app_id', '=', appId)
    .where('channel_id', '=', channelId)
    .executeTakeFirst();
}

export function insertRegistration(
  db: CommunicationDb,
  registration: NewRegistration,
): Promise<RegistrationRow> {
  return db
    .insertInto('registrations')
    .values({ ...registration, metadata: jsonb(registration.metadata) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes the fields given; undefined when the registration is gone. */
export function updateRegistration(
  db: CommunicationDb,
  id: string,
  changes: RegistrationChanges,
): Promise<RegistrationRow | undefined> {
  return db
    .updateTable('registrations')
    .set({
      enabled: changes.enabled,
      target: changes.target,
      metadata: changes.metadata && jsonb(changes.metadata),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function deleteRegistration(
  db: CommunicationDb,
  id: string,
): Promise<RegistrationRow | undefined> {
  return db.deleteFrom('registrations').where('id', '=', id).returningAll().executeTakeFirst();
}
