import { badRequest, newId, unique, type Ownership } from '@platform/core';
import { idsByIdOrName, jsonb, sql } from '@platform/db';
import type { Columns, PaletteDb, RecordTable, Row } from '../database.js';

/** What every kind of record shares; the rest of this file works on any of them. */

const JSON_COLUMNS = new Set(['tags', 'props', 'variants', 'examples', 'steps', 'guidelines']);

/** Values for an insert or an update, jsonb columns as JSON text. */
const toColumns = <T extends object>(values: T): T =>
  Object.fromEntries(
    Object.entries(values).map(([column, value]) => [
      column,
      JSON_COLUMNS.has(column) && value !== undefined ? jsonb(value) : value,
    ]),
  ) as T;

/** The list filters; each kind's query schema allows those of its columns (any other is ignored). */
const FILTERS = ['category', 'group', 'status', 'severity', 'tag'] as const;

/** A page of records by name, filtered on the filters given (exact match; `tag`: has it). */
export function listNamed<T extends RecordTable>(
  db: PaletteDb,
  table: T,
  page: { limit: number; offset: number } & Partial<Record<(typeof FILTERS)[number], unknown>>,
) {
  let query = db.selectFrom(table as RecordTable).selectAll();
  for (const column of FILTERS) {
    const value = page[column];
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
    .execute() as unknown as Promise<Array<Row<T>>>;
}

/** Ids of the records named (by exact id, else name in any case), in order, without repeats. */
export async function resolveRefs(
  db: PaletteDb,
  table: 'tokens' | 'components',
  refs: readonly string[],
): Promise<string[]> {
  const wanted = unique(refs);
  const ids = await idsByIdOrName(db, table, wanted);
  return unique(
    ids.map((id, i) => {
      // `Unknown token: x`, `Unknown component: x`
      if (id === undefined) throw badRequest(`Unknown ${table.slice(0, -1)}: ${wanted[i]}`);
      return id;
    }),
  );
}

/**
 * The kinds of record that link to others: the link table, its columns (from the record, to what
 * it links) and the table linked to. A body names the targets (ids or names) in the field of that
 * table's name (`tokens`, `components`).
 */
export const LINKS = {
  components: { link: 'component_tokens', from: 'component_id', to: 'token_id', targets: 'tokens' },
  patterns: {
    link: 'pattern_components',
    from: 'pattern_id',
    to: 'component_id',
    targets: 'components',
  },
  rules: { link: 'rule_components', from: 'rule_id', to: 'component_id', targets: 'components' },
} as const;
type LinkingTable = keyof typeof LINKS;

export const hasLinks = (table: RecordTable): table is LinkingTable => table in LINKS;

/** The ids each record links to, in the order linked: one query for any number of records. */
export async function linkedIds(
  db: PaletteDb,
  table: LinkingTable,
  ids: readonly string[],
): Promise<Map<string, string[]>> {
  const byRecord = new Map(ids.map((id) => [id, [] as string[]]));
  if (ids.length === 0) return byRecord;
  const { link, from, to } = LINKS[table];
  const rows = await db
    .selectFrom(link as 'rule_components')
    .select([sql<string>`${sql.ref(from)}`.as('from'), sql<string>`${sql.ref(to)}`.as('to')])
    .where(sql.ref(from), 'in', unique(ids))
    .orderBy('seq')
    .execute();
  for (const row of rows) byRecord.get(row.from)?.push(row.to);
  return byRecord;
}

/**
 * Runs a write that returns the record, then (when `targets` are given) replaces its links with
 * them, in their order, in the same transaction.
 */
async function writeWithLinks<T extends RecordTable>(
  db: PaletteDb,
  table: T,
  targets: readonly string[] | undefined,
  write: (db: PaletteDb) => Promise<unknown>,
) {
  const run = async (trx: PaletteDb) => {
    const row = (await write(trx)) as Row<T>;
    if (targets) {
      const { link, from, to } = LINKS[table as LinkingTable];
      await trx
        .deleteFrom(link as 'rule_components')
        .where(sql.ref(from), '=', row.id)
        .execute();
      if (targets.length > 0)
        await trx
          .insertInto(link as 'rule_components')
          .values(targets.map((target) => ({ [from]: row.id, [to]: target }) as never))
          .execute();
    }
    return row;
  };
  return targets ? db.transaction().execute(run) : run(db);
}

/** Inserts a record with a new id, and its links (`targets`, when given). */
export const insertRecord = <T extends RecordTable>(
  db: PaletteDb,
  table: T,
  values: Columns<T>,
  targets?: readonly string[],
) =>
  writeWithLinks(db, table, targets, (trx) =>
    trx
      .insertInto(table as RecordTable)
      .values({ id: newId(), ...toColumns(values) } as never)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );

/** Changes the columns given (and `updated`); `targets`, when given, replace the links. */
export const updateRecord = <T extends RecordTable>(
  db: PaletteDb,
  table: T,
  id: string,
  changes: Partial<Columns<T>>,
  targets?: readonly string[],
) =>
  writeWithLinks(db, table, targets, (trx) =>
    trx
      .updateTable(table as RecordTable)
      .set({ ...toColumns(changes), updated: sql`now()` } as never)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );

/** Deletes a record (its links go with it). */
export async function deleteRecord(db: PaletteDb, table: RecordTable, id: string) {
  await db
    .deleteFrom(table as 'tokens')
    .where('id', '=', id)
    .execute();
}

/**
 * Who owns the record named, for the `owner` rule: asked before validation, so `idOrName` is
 * whatever the path held. Resolved as the handlers resolve it (an exact id first, then a name in
 * any case); undefined when there is none (the handler then answers 404).
 */
export async function findOwnership(
  db: PaletteDb,
  table: RecordTable,
  idOrName: unknown,
): Promise<Ownership | undefined> {
  if (typeof idOrName !== 'string' || idOrName === '') return undefined;
  const row = await db
    .selectFrom(table as 'tokens')
    .select(['created_by', 'team'])
    .where((eb) =>
      eb.or([eb('id', '=', idOrName), eb(sql`lower(name)`, '=', idOrName.toLowerCase())]),
    )
    .orderBy(sql`id = ${idOrName}`, 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { createdBy: row.created_by, team: row.team };
}
