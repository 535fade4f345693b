import { notFound, type Static } from '@platform/core';
import { jsonb, sql, type Insertable, type Updateable } from '@platform/db';
import type { CatalogDb, DomainsTable } from '../database.js';
import type { DomainListQuery } from '../schemas/domains.js';
import { byKind, dependentKind } from './groups.js';
import { labelSql, namedSql, selectNamed } from './named.js';

/** Domains with their owner as shown. */
const selectDomains = (db: CatalogDb) =>
  db
    .selectFrom('domains as g')
    .leftJoin('owners as l', 'l.id', 'g.owner_id')
    .selectAll('g')
    .select(labelSql('l').as('owner'));

/** A domain as stored, with its owner as shown. */
export type DomainRow = Awaited<ReturnType<typeof getDomain>>;

/** A page of domains by name, filtered; one query. */
export function listDomains(db: CatalogDb, filter: Static<typeof DomainListQuery>) {
  let query = selectDomains(db);
  if (filter.owner !== undefined) query = query.where(namedSql(filter.owner, 'l'));
  if (filter.tag !== undefined)
    query = query.where(sql<boolean>`g.tags @> ${jsonb([filter.tag])}::jsonb`);
  if (filter.namespace !== undefined)
    query = query.where(sql`lower(g.namespace)`, '=', filter.namespace.toLowerCase());
  return query
    .orderBy(sql`lower(g.name)`)
    .orderBy(sql`lower(g.namespace)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/** The domain with its owner; NOT_FOUND when there is none (any more). */
export async function getDomain(db: CatalogDb, id: string) {
  const row = await selectDomains(db).where('g.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Domain', id);
  return row;
}

/** The domain of that id, `namespace/name` or name; NOT_FOUND `Domain not found: x`. */
export async function findDomain(db: CatalogDb, idOrName: string): Promise<DomainRow> {
  const found = await selectNamed(db, 'domains', idOrName);
  if (!found) throw notFound('Domain', idOrName);
  return getDomain(db, found.id);
}

const jsonColumns = <T extends Updateable<DomainsTable>>(row: T) => ({
  ...row,
  tags: row.tags && jsonb(row.tags),
  links: row.links && jsonb(row.links),
});

/** Inserts the domain; a name taken in its namespace throws the unique violation. */
export async function insertDomain(db: CatalogDb, domain: Insertable<DomainsTable>) {
  await db
    .insertInto('domains')
    .values(jsonColumns(domain) as Insertable<DomainsTable>)
    .execute();
}

/** Changes the columns given; a name taken throws the unique violation. */
export async function updateDomain(db: CatalogDb, id: string, changes: Updateable<DomainsTable>) {
  await db
    .updateTable('domains')
    .set({ ...jsonColumns(changes), updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Throws a foreign key violation while a system still points at it. */
export async function deleteDomain(db: CatalogDb, id: string) {
  await db.deleteFrom('domains').where('id', '=', id).execute();
}

/** The systems (id and name as shown, by name) of a domain. */
export function domainSystems(db: CatalogDb, id: string) {
  return db
    .selectFrom('systems as g')
    .select(['g.id', labelSql('g').$notNull().as('name')])
    .where('g.domain_id', '=', id)
    .orderBy(sql`lower(g.name)`)
    .execute();
}

/** What still points at a domain (systems): what a refused delete names. */
export async function domainDependents(db: CatalogDb, id: string) {
  const rows = await db
    .selectFrom('systems')
    .select([dependentKind('systems'), 'name'])
    .where('domain_id', '=', id)
    .execute();
  return byKind(rows, ['systems']);
}
