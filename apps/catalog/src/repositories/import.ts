import { jsonb, sql } from '@platform/db';
import type { CatalogDb } from '../database.js';
import { linksOf } from './relations.js';

/** The collections an import writes, by the name the plan gives them. */
export const TABLE = {
  owner: 'owners',
  system: 'systems',
  api: 'apis',
  service: 'services',
} as const;
export type ImportTable = (typeof TABLE)[keyof typeof TABLE];

/** A stored record as an import compares it: its columns, and a service's links as ids. */
export interface ExistingRow {
  id: string;
  name: string;
  [column: string]: unknown;
}

const byLowerName = (names: string[]) => [...new Set(names.map((name) => name.toLowerCase()))];

/**
 * The records of each collection with one of these names (in any case), in one query per
 * collection, plus one for the links of the services; every owner (to follow parent chains).
 */
export async function loadExisting(
  db: CatalogDb,
  names: Record<'system' | 'api' | 'service', string[]>,
) {
  const owners = await db
    .selectFrom('owners')
    .select(['id', 'name', 'email', 'team', 'kind', 'parent_id', 'created_by', 'members'])
    .execute();
  const named = <T extends 'systems' | 'apis' | 'services'>(table: T, list: string[]) =>
    list.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom(table as 'services')
          .selectAll()
          .where(sql`lower(name)`, 'in', byLowerName(list))
          .execute();
  const systems = (await named('systems', names.system)) as unknown as ExistingRow[];
  const apis = (await named('apis', names.api)) as unknown as ExistingRow[];
  const services = (await named('services', names.service)) as unknown as ExistingRow[];
  const links = await linksOf(
    db,
    services.map((row) => row.id),
  );
  return {
    owner: owners as ExistingRow[],
    system: systems,
    api: apis,
    service: services.map((row) => ({ ...row, ...links.get(row.id)! })),
  };
}

const JSON_COLUMNS = new Set(['tags', 'links', 'annotations']);
const asColumns = (columns: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(columns).map(([key, value]) => [
      key,
      JSON_COLUMNS.has(key) ? jsonb(value) : value,
    ]),
  );

/**
 * Rows an insert statement takes: PostgreSQL binds at most 65,535 parameters a statement and a
 * service row has about ten, so one statement for 10,000 rows would be refused.
 */
export const INSERT_CHUNK = 1000;

/** Inserts new records of one collection, INSERT_CHUNK rows a statement (in the import's transaction). */
export async function insertRows(
  db: CatalogDb,
  table: ImportTable,
  rows: Array<Record<string, unknown>>,
) {
  for (let at = 0; at < rows.length; at += INSERT_CHUNK)
    await db
      .insertInto(table as 'services')
      .values(rows.slice(at, at + INSERT_CHUNK).map(asColumns) as never)
      .execute();
}

/** Sets the columns of one record and its updated time (run in the import's transaction). */
export async function updateRow(
  db: CatalogDb,
  table: ImportTable,
  id: string,
  columns: Record<string, unknown>,
) {
  await db
    .updateTable(table as 'services')
    .set({ ...asColumns(columns), updated_at: sql`now()` } as never)
    .where('id', '=', id)
    .execute();
}
