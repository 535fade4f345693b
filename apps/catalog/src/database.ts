import type { Generated, Kysely, Selectable } from '@platform/db';

/** The service's Postgres schema; raw SQL (the graph walk) names its tables in full with it. */
export const SCHEMA = 'catalog';

/** The tables of the `catalog` schema, as the migrations make them. */
export interface CatalogDatabase {
  systems: SystemsTable;
  owners: OwnersTable;
  services: ServicesTable;
  dependencies: DependenciesTable;
}

interface StampColumns {
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SystemsTable extends StampColumns {
  id: string;
  name: string;
  description: string | null;
}

export interface OwnersTable extends StampColumns {
  id: string;
  name: string;
  email: string | null;
  team: string | null;
}

export interface ServicesTable extends StampColumns {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  system_id: string | null;
  owner_id: string | null;
}

/** An edge: service_id depends on depends_on_id; seq keeps the order they were added in. */
export interface DependenciesTable {
  service_id: string;
  depends_on_id: string;
  seq: Generated<number>;
  created_at: Generated<Date>;
}

export type CatalogDb = Kysely<CatalogDatabase>;
export type SystemRow = Selectable<SystemsTable>;
export type OwnerRow = Selectable<OwnersTable>;
export type ServiceRow = Selectable<ServicesTable>;
