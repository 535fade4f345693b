import { sql } from '@platform/db';
import type { CatalogDb } from '../database.js';
import { labelSql } from './named.js';

/** The service's owner record as the overview shows it; undefined when it has none. */
export function ownerOf(db: CatalogDb, ownerId: string | null) {
  if (!ownerId) return Promise.resolve(undefined);
  return db
    .selectFrom('owners as o')
    .select([
      'o.id',
      labelSql('o').$castTo<string>().as('name'),
      'o.email',
      'o.kind',
      'o.team as displayName',
      sql<number>`jsonb_array_length(o.members)`.as('members'),
    ])
    .where('o.id', '=', ownerId)
    .executeTakeFirst();
}

/**
 * The services one step away, both ways, by name: what it depends on (`down`) and what depends
 * on it (`up`), in one query.
 */
export async function neighbours(db: CatalogDb, serviceId: string) {
  const rows = await db
    .selectFrom('dependencies as d')
    .innerJoin('services as s', (join) =>
      join.on(
        sql<boolean>`(d.service_id = ${serviceId} and s.id = d.depends_on_id)
          or (d.depends_on_id = ${serviceId} and s.id = d.service_id)`,
      ),
    )
    .select([
      's.id',
      labelSql('s').$castTo<string>().as('name'),
      sql<'down' | 'up'>`case when d.service_id = ${serviceId} then 'down' else 'up' end`.as('way'),
    ])
    .where((eb) =>
      eb.or([eb('d.service_id', '=', serviceId), eb('d.depends_on_id', '=', serviceId)]),
    )
    .orderBy(sql`lower(s.name)`)
    .execute();
  const of = (way: 'down' | 'up') =>
    rows.filter((r) => r.way === way).map(({ id, name }) => ({ id, name }));
  return { dependsOn: of('down'), usedBy: of('up') };
}
