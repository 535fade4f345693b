import { sql, type Generated, type Kysely, type Selectable } from '@platform/db';

interface Stamps {
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SystemsTable extends Stamps {
  id: string;
  name: string;
  description: string | null;
}

export interface OwnersTable extends Stamps {
  id: string;
  name: string;
  email: string | null;
  team: string | null;
}

export interface ServicesTable extends Stamps {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  system_id: string | null;
  owner_id: string | null;
}

export interface DependenciesTable {
  service_id: string;
  depends_on_id: string;
  seq: Generated<number>;
  created_at: Generated<Date>;
}

export interface CatalogDatabase {
  systems: SystemsTable;
  owners: OwnersTable;
  services: ServicesTable;
  dependencies: DependenciesTable;
}

export type CatalogDb = Kysely<CatalogDatabase>;

/** The service's Postgres schema. */
export const SCHEMA = 'catalog';
export type SystemRow = Selectable<SystemsTable>;
export type OwnerRow = Selectable<OwnersTable>;

/** jsonb parameters go in as text: both pg and PGlite cast it. */
export const jsonb = <T>(value: T) => JSON.stringify(value) as unknown as T;

// Services, as the API shows them: system and owner by name, dependencies as ids.

export function selectServices(db: CatalogDb) {
  return db
    .selectFrom('services as s')
    .leftJoin('systems as sy', 'sy.id', 's.system_id')
    .leftJoin('owners as o', 'o.id', 's.owner_id')
    .select([
      's.id',
      's.name',
      's.description',
      's.tags',
      's.created_at',
      's.updated_at',
      'sy.name as system',
      'o.name as owner',
    ])
    .select((eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom('dependencies as d')
            .select(sql<string[]>`jsonb_agg(d.depends_on_id order by d.seq)`.as('ids'))
            .whereRef('d.service_id', '=', 's.id'),
          sql<string[]>`'[]'::jsonb`,
        )
        .as('dependencies'),
    );
}

export type ServiceRow = Awaited<
  ReturnType<ReturnType<typeof selectServices>['executeTakeFirstOrThrow']>
>;

export const findService = (db: CatalogDb, id: string) =>
  selectServices(db).where('s.id', '=', id).executeTakeFirst();

export interface ServiceFilter {
  system?: string;
  owner?: string;
  tag?: string;
}

export function listServices(
  db: CatalogDb,
  filter: ServiceFilter,
  page: { limit: number; offset: number },
) {
  let query = selectServices(db);
  if (filter.system !== undefined)
    query = query.where(sql`lower(sy.name)`, '=', filter.system.toLowerCase());
  if (filter.owner !== undefined)
    query = query.where(sql`lower(o.name)`, '=', filter.owner.toLowerCase());
  if (filter.tag !== undefined)
    query = query.where(sql<boolean>`s.tags @> ${jsonb([filter.tag])}::jsonb`);
  return query
    .orderBy(sql`lower(s.name)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The services of a system or an owner, by name. */
export const servicesWhere = (db: CatalogDb, column: 'system_id' | 'owner_id', id: string) =>
  db
    .selectFrom('services')
    .select(['id', 'name'])
    .where(column, '=', id)
    .orderBy(sql`lower(name)`)
    .execute();

export const dependencyIds = async (db: CatalogDb, serviceId: string) =>
  (
    await db
      .selectFrom('dependencies')
      .select('depends_on_id')
      .where('service_id', '=', serviceId)
      .orderBy('seq')
      .execute()
  ).map((row) => row.depends_on_id);
