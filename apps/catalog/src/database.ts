import type { Generated, Kysely, Selectable } from '@platform/db';

/** The service's Postgres schema; raw SQL (the graph walk) names its tables in full with it. */
export const SCHEMA = 'catalog';

/** The columns of every named record: systems, owners, services. */
interface RecordColumns {
  id: string;
  name: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** The tables of the `catalog` schema, as the migrations make them. */
export interface CatalogDatabase {
  systems: RecordColumns & { description: string | null };
  owners: RecordColumns & { email: string | null; team: string | null };
  services: ServicesTable;
  dependencies: DependenciesTable;
}

export interface ServicesTable extends RecordColumns {
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
/** A system or an owner as the group routes read it; its own columns are shown as they are. */
export type GroupRow = Selectable<RecordColumns>;
export type ServiceRow = Selectable<ServicesTable>;
