import { notFound, type Static } from '@platform/core';
import { jsonb, sql, type Insertable, type Updateable } from '@platform/db';
import { SCHEMA, type CatalogDb, type OwnersTable } from '../database.js';
import type { OwnerListQuery } from '../schemas/owners.js';
import { byKind, dependentKind } from './groups.js';
import { labelSql, namedSql, selectNamed } from './named.js';

/** Owners with the name of their parent group. */
const selectOwners = (db: CatalogDb) =>
  db
    .selectFrom('owners as g')
    .leftJoin('owners as l', 'l.id', 'g.parent_id')
    .selectAll('g')
    .select(labelSql('l').as('parent'));

/** An owner as stored, with the name of its parent group. */
export type OwnerRow = Awaited<ReturnType<typeof getOwner>>;

/**
 * A page of owners by name, filtered. `member` is what every service asks to know a person's
 * teams: the GIN index on members answers its `@>` (members are stored in lower case).
 */
function ownersQuery(db: CatalogDb, filter: Static<typeof OwnerListQuery>) {
  let query = selectOwners(db);
  if (filter.kind !== undefined) query = query.where('g.kind', '=', filter.kind);
  if (filter.parent !== undefined) query = query.where(namedSql(filter.parent, 'l'));
  if (filter.namespace !== undefined)
    query = query.where(sql`lower(g.namespace)`, '=', filter.namespace.toLowerCase());
  if (filter.member !== undefined)
    query = query.where(sql<boolean>`g.members @> ${jsonb([filter.member.toLowerCase()])}::jsonb`);
  return query
    .orderBy(sql`lower(g.name)`)
    .limit(filter.limit)
    .offset(filter.offset);
}

/** A page of owners by name, filtered; one query. */
export const listOwners = (db: CatalogDb, filter: Static<typeof OwnerListQuery>) =>
  ownersQuery(db, filter).execute();

/** The plan of a page of owners, as EXPLAIN prints it (the tests check the index serves it). */
export async function explainOwners(db: CatalogDb, filter: Static<typeof OwnerListQuery>) {
  const { rows } = await sql<{
    'QUERY PLAN': string;
  }>`explain ${ownersQuery(db, filter)}`.execute(db);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** The owner with its parent's name; NOT_FOUND when there is none (any more). */
export async function getOwner(db: CatalogDb, id: string) {
  const row = await selectOwners(db).where('g.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Owner', id);
  return row;
}

/** The owner with that id, else that name in any case; NOT_FOUND `Owner not found: x`. */
export async function findOwner(db: CatalogDb, idOrName: string): Promise<OwnerRow> {
  const found = await selectNamed(db, 'owners', idOrName);
  const row = found && (await selectOwners(db).where('g.id', '=', found.id).executeTakeFirst());
  if (!row) throw notFound('Owner', idOrName);
  return row;
}

/** Inserts the owner; a name taken (in any case) throws the unique violation. */
export async function insertOwner(db: CatalogDb, owner: Insertable<OwnersTable>) {
  await db
    .insertInto('owners')
    .values({ ...owner, members: owner.members && jsonb(owner.members) })
    .execute();
}

/** Changes the columns given; a name taken throws the unique violation. */
export async function updateOwner(db: CatalogDb, id: string, changes: Updateable<OwnersTable>) {
  await db
    .updateTable('owners')
    .set({
      ...changes,
      members: changes.members && jsonb(changes.members),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/** Throws a foreign key violation while anything still points at it. */
export async function deleteOwner(db: CatalogDb, id: string) {
  await db.deleteFrom('owners').where('id', '=', id).execute();
}

/** The services (id and name, by name) of an owner. */
export function ownerServices(db: CatalogDb, id: string) {
  return db
    .selectFrom('services')
    .select(['id', 'name'])
    .where('owner_id', '=', id)
    .orderBy(sql`lower(name)`)
    .execute();
}

/** The groups (id and name, by name) whose parent the owner is. */
export function childrenOf(db: CatalogDb, id: string) {
  return db
    .selectFrom('owners as g')
    .select(['g.id', labelSql('g').$notNull().as('name')])
    .where('g.parent_id', '=', id)
    .orderBy(sql`lower(g.name)`)
    .execute();
}

/**
 * A group's members in the catalog (Backstage's hasMember) and the groups an owner is a member of
 * (memberOf): one relation, stored once whichever side named it.
 */
export async function membershipsOf(db: CatalogDb, id: string) {
  const side = (mine: 'group_id' | 'member_id', other: 'group_id' | 'member_id') =>
    db
      .selectFrom('memberships as m')
      .innerJoin('owners as g', 'g.id', `m.${other}`)
      .select(['g.id', labelSql('g').$notNull().as('name')])
      .where(`m.${mine}`, '=', id)
      .orderBy(sql`lower(g.name)`)
      .execute();
  return {
    users: await side('group_id', 'member_id'),
    memberOf: await side('member_id', 'group_id'),
  };
}

/**
 * What still points at an owner (services, child groups, systems, APIs), in one query: what a
 * refused delete names.
 */
export async function ownerDependents(db: CatalogDb, id: string) {
  const rows = await db
    .selectFrom('services')
    .select([dependentKind('services'), 'name'])
    .where('owner_id', '=', id)
    .unionAll(
      db
        .selectFrom('apis')
        .select([dependentKind('APIs'), 'name'])
        .where('owner_id', '=', id),
    )
    .unionAll(
      db
        .selectFrom('owners')
        .select([dependentKind('child groups'), 'name'])
        .where('parent_id', '=', id),
    )
    .unionAll(
      db
        .selectFrom('systems')
        .select([dependentKind('systems'), 'name'])
        .where('owner_id', '=', id),
    )
    .execute();
  return byKind(rows, ['services', 'child groups', 'systems', 'APIs']);
}

/**
 * Serialises changes of owners' parents: an advisory lock held to the end of the caller's
 * transaction (a PATCH of a parent, an import), so two of them cannot each close half a cycle.
 */
export async function lockOwnerParents(db: CatalogDb) {
  await sql`select pg_advisory_xact_lock(hashtext(${`${SCHEMA}.owners.parent`}))`.execute(db);
}

/**
 * The chain of groups from `id` up through its parents (itself first), in one recursive query,
 * under lockOwnerParents.
 */
export async function ancestorsOf(db: CatalogDb, id: string) {
  await lockOwnerParents(db);
  const owners = sql.table(`${SCHEMA}.owners`);
  const { rows } = await sql<{ id: string; name: string }>`
    with recursive up(id, name, parent_id, depth) as (
      select id, name, parent_id, 0 from ${owners} where id = ${id}
      union all
      select o.id, o.name, o.parent_id, up.depth + 1
      from ${owners} as o join up on o.id = up.parent_id
      where up.depth < 100000
    )
    select id, name from up order by depth
  `.execute(db);
  return rows;
}
