import type { Ownership } from '@platform/core';
import { sql } from '@platform/db';
import type { CatalogDb } from '../database.js';
import { namedSql, refLabel } from './named.js';

// Who owns a record, for the `owner` rule: asked before validation, so `idOrName` is whatever the
// path held (anything but a non-empty string: undefined). Resolved as the handlers resolve it, an
// exact id first, then a name in any case. Undefined when there is no such record (the handler
// then answers 404).

/** The tables whose records name their own team. */
export type OwnedTable = 'services' | 'systems' | 'apis' | 'domains';

/** The ownership of a service, system or API as stored. */
export const ownershipOf = (row: { created_by: unknown; team: unknown }): Ownership => ({
  createdBy: (row.created_by as string | null) ?? null,
  team: (row.team as string | null) ?? null,
});

/**
 * The ownership of an owner: its creator, and the team it is itself, so that the people in it (its
 * members, and those whose `groups` claim has its name) and admins manage it.
 */
export const ownerOwnershipOf = (row: {
  namespace?: string;
  name: string;
  created_by: unknown;
  members: unknown;
}): Ownership => ({
  // A team is its members': making the record gives no say in it (else anyone could make the
  // owner of an identity provider's group before an admin does, and join that team).
  createdBy: null,
  // Outside `default`, the team is `namespace/name`: two owners of one name stay two teams.
  team: refLabel(row.namespace ?? 'default', row.name),
  collaborators: (row.members as string[] | null) ?? [],
});

const byIdOrName = (db: CatalogDb, table: OwnedTable | 'owners', idOrName: string) =>
  db
    .selectFrom(table as 'owners')
    .where(namedSql(idOrName))
    .orderBy(sql`id = ${idOrName}`, 'desc')
    .limit(1);

const named = (idOrName: unknown): idOrName is string =>
  typeof idOrName === 'string' && idOrName !== '';

/** Who owns the service, system or API named. */
export async function findOwnership(
  db: CatalogDb,
  table: OwnedTable,
  idOrName: unknown,
): Promise<Ownership | undefined> {
  if (!named(idOrName)) return undefined;
  const row = await byIdOrName(db, table, idOrName)
    .select(['created_by', 'team'])
    .executeTakeFirst();
  return row && ownershipOf(row);
}

/** Who owns the owner named: its own team (its members and the `groups` claim), and admins. */
export async function findOwnerOwnership(
  db: CatalogDb,
  idOrName: unknown,
): Promise<Ownership | undefined> {
  if (!named(idOrName)) return undefined;
  const row = await byIdOrName(db, 'owners', idOrName)
    .select(['namespace', 'name', 'created_by', 'members'])
    .executeTakeFirst();
  return row && ownerOwnershipOf(row);
}
