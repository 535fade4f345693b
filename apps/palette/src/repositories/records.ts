import { badRequest, newId } from '@platform/core';
import { jsonb, sql, type Selectable } from '@platform/db';
import type { PaletteDatabase, PaletteDb, RecordTable } from '../database.js';
import { unique } from '../domain/records.js';

/** What every kind of record shares; the rest of this file works on any of them. */

const JSON_COLUMNS = new Set(['tags', 'props', 'variants', 'examples', 'steps', 'guidelines']);

/** Values for an insert or an update, jsonb columns as JSON text. */
export const toColumns = <T extends object>(values: T): T =>
  Object.fromEntries(
    Object.entries(values).map(([column, value]) => [
      column,
      JSON_COLUMNS.has(column) && value !== undefined ? jsonb(value) : value,
    ]),
  ) as T;

export interface Page {
  limit: number;
  offset: number;
}

/** Records by name, filtered on the columns given (exact match) and on a tag. */
export function listNamed<T extends RecordTable>(
  db: PaletteDb,
  table: T,
  filter: Record<string, string | undefined>,
  page: Page,
) {
  let query = db.selectFrom(table as RecordTable).selectAll();
  for (const [column, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    query =
      column === 'tag'
        ? query.where(sql<boolean>`tags @> ${jsonb([value])}::jsonb`)
        : query.where(sql.ref(column), '=', value);
  }
  return query
    .orderBy(sql`lower(name)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute() as unknown as Promise<Array<Selectable<PaletteDatabase[T]>>>;
}

/** Ids of the records named (by exact id, else name in any case), in order, without repeats. */
export async function resolveRefs(
  db: PaletteDb,
  table: 'tokens' | 'components',
  refs: readonly string[],
  noun: string,
): Promise<string[]> {
  const wanted = unique(refs);
  if (wanted.length === 0) return [];
  const rows = await db
    .selectFrom(table as 'components')
    .select(['id', sql<string>`lower(name)`.as('key')])
    .where((eb) =>
      eb.or([
        eb('id', 'in', wanted),
        eb(
          sql`lower(name)`,
          'in',
          wanted.map((ref) => ref.toLowerCase()),
        ),
      ]),
    )
    .execute();
  const byId = new Set(rows.map((row) => row.id));
  const byName = new Map(rows.map((row) => [row.key, row.id]));
  return unique(
    wanted.map((ref) => {
      const id = byId.has(ref) ? ref : byName.get(ref.toLowerCase());
      if (id === undefined) throw badRequest(`Unknown ${noun}: ${ref}`);
      return id;
    }),
  );
}

/** Each link table and its columns: from the record, to what it links. */
const LINKS = {
  component_tokens: ['component_id', 'token_id'],
  pattern_components: ['pattern_id', 'component_id'],
  rule_components: ['rule_id', 'component_id'],
} as const;
export type LinkTable = keyof typeof LINKS;

/** The ids each record links to, in the order linked: one query for any number of records. */
export async function linkedIds(
  db: PaletteDb,
  link: LinkTable,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const byRecord = new Map(ids.map((id) => [id, [] as string[]]));
  if (ids.length === 0) return byRecord;
  const [from, to] = LINKS[link];
  const rows = await db
    .selectFrom(link as 'rule_components')
    .select([sql<string>`${sql.ref(from)}`.as('from'), sql<string>`${sql.ref(to)}`.as('to')])
    .where(sql.ref(from), 'in', unique(ids))
    .orderBy('seq')
    .execute();
  for (const row of rows) byRecord.get(row.from)?.push(row.to);
  return byRecord;
}

/** Replaces the links of a record, keeping the given order. */
export async function replaceLinks(
  db: PaletteDb,
  link: LinkTable,
  id: string,
  targets: readonly string[],
) {
  const [from, to] = LINKS[link];
  await db
    .deleteFrom(link as 'rule_components')
    .where(sql.ref(from), '=', id)
    .execute();
  if (targets.length > 0)
    await db
      .insertInto(link as 'rule_components')
      .values(targets.map((target) => ({ [from]: id, [to]: target }) as never))
      .execute();
}

/** The links a write replaces: the record's links in `link` become `targets`, in order. */
export interface LinksChange {
  link: LinkTable;
  targets: readonly string[];
}

/** Inserts a record with a new id, and its links in the same transaction. */
export async function insertRecord<T extends RecordTable>(
  db: PaletteDb,
  table: T,
  values: object,
  links?: LinksChange,
) {
  const write = async (trx: PaletteDb) => {
    const row = await trx
      .insertInto(table as RecordTable)
      .values({ id: newId(), ...toColumns(values) } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (links) await replaceLinks(trx, links.link, row.id, links.targets);
    return row as unknown as Selectable<PaletteDatabase[T]>;
  };
  return links ? db.transaction().execute(write) : write(db);
}

/** Changes the columns given (and `updated`), and replaces links when given, in one transaction. */
export async function updateRecord<T extends RecordTable>(
  db: PaletteDb,
  table: T,
  id: string,
  changes: object,
  links?: LinksChange,
) {
  const write = async (trx: PaletteDb) => {
    const row = await trx
      .updateTable(table as RecordTable)
      .set({ ...toColumns(changes), updated: sql`now()` } as never)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (links) await replaceLinks(trx, links.link, id, links.targets);
    return row as unknown as Selectable<PaletteDatabase[T]>;
  };
  return links ? db.transaction().execute(write) : write(db);
}

/** Deletes a record (its links go with it). */
export async function deleteRecord(db: PaletteDb, table: RecordTable, id: string) {
  await db
    .deleteFrom(table as 'tokens')
    .where('id', '=', id)
    .execute();
}
