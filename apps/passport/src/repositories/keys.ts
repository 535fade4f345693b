import type { Role } from '@platform/core';
import { jsonb, ownedBy, sql, type Visible } from '@platform/db';
import type { ApiKeyRow, PassportDb } from '../database.js';
import { announceRevocation } from './credentials.js';

export interface NewKey {
  id: string;
  name: string;
  prefix: string;
  key_hash: string;
  created_by: string | null;
  expires_at: Date | null;
  bootstrap?: boolean;
  scopes?: string[];
  team?: string | null;
  creator_groups?: string[];
  fixed_role?: Role | null;
}

export function insertKey(db: PassportDb, key: NewKey): Promise<ApiKeyRow> {
  const { scopes, creator_groups: groups, ...rest } = key;
  return db
    .insertInto('api_keys')
    .values({
      ...rest,
      ...(scopes ? { scopes: jsonb(scopes) } : {}),
      ...(groups ? { creator_groups: jsonb(groups) } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The key of a hash, whatever its state (the resolver checks it). */
export function findKeyByHash(db: PassportDb, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .select([
      'id',
      'name',
      'key_hash',
      'last_used_at',
      'expires_at',
      'revoked_at',
      'bootstrap',
      'created_by',
      'scopes',
      'team',
      'creator_groups',
      'fixed_role',
    ])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

export async function touchKey(db: PassportDb, id: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: sql`now()` })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<', sql<Date>`now() - interval '1 minute'`),
      ]),
    )
    .execute();
}

export function findKeyById(db: PassportDb, id: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'bootstrap', 'created_by', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The key with exactly that id, else the one of that name in any case: the live one first (names
 * are unique among live keys), then the newest revoked one. `createdBy`: only the keys that
 * creator made (an email, any case).
 */
export function findKey(db: PassportDb, idOrName: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where((eb) =>
      eb.or([eb('id', '=', idOrName), eb(sql<string>`lower(name)`, '=', idOrName.toLowerCase())]),
    )
    .orderBy(sql`id = ${idOrName}`, 'desc')
    .orderBy(sql`revoked_at is null`, 'desc')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Keys newest first; `visible`: only those these creators made or of these teams (any case). */
export function listKeys(
  db: PassportDb,
  page: { limit: number; offset: number },
  visible?: Visible,
): Promise<ApiKeyRow[]> {
  let query = db.selectFrom('api_keys').selectAll();
  if (visible) query = query.where(ownedBy(visible));
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Revokes a key (announced to every process: see announceRevocation); undefined when unknown. */
export async function revokeKey(db: PassportDb, id: string): Promise<ApiKeyRow | undefined> {
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: sql`coalesce(revoked_at, now())` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  if (row) await announceRevocation(db);
  return row;
}

/**
 * Makes the bootstrap key the one PLATFORM_API_KEY names (none when unset): the others are
 * revoked, and a key seeded before keeps its row, so a revoked one stays revoked.
 */
export async function seedBootstrapKey(db: PassportDb, key: NewKey | undefined): Promise<void> {
  await db.transaction().execute(async (trx) => {
    let stale = trx
      .updateTable('api_keys')
      .set({ revoked_at: sql`now()` })
      .where('bootstrap', '=', true)
      .where('revoked_at', 'is', null);
    if (key) stale = stale.where('key_hash', '!=', key.key_hash);
    const [revoked] = await stale.execute();
    if (revoked.numUpdatedRows > 0n) await announceRevocation(trx);
    if (key)
      await trx
        .insertInto('api_keys')
        .values({ ...key, bootstrap: true })
        .onConflict((oc) => oc.column('key_hash').doNothing())
        .execute();
  });
}
