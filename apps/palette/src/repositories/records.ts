import { badRequest, unique, type Ownership } from '@platform/core';
import { idsByIdOrName, jsonb, sql } from '@platform/db';
import type { PaletteDb, RecordTable } from '../database.js';

// What the statements of every kind of record share.

/** The filter of a list on a tag: the record has it. */
export const hasTag = (tag: string) => sql<boolean>`tags @> ${jsonb([tag])}::jsonb`;

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
 * The ids each record links to, in the order linked, from the rows of its link table that `load`
 * reads (`from` the record, `to` what it links to): one query for any number of records, none
 * for none. Every record given is in the map, linked or not.
 */
export async function linksByRecord(
  ids: readonly string[],
  load: (ids: string[]) => Promise<ReadonlyArray<{ from: string; to: string }>>,
): Promise<Map<string, string[]>> {
  const byRecord = new Map(ids.map((id) => [id, [] as string[]]));
  if (ids.length === 0) return byRecord;
  for (const row of await load(unique(ids))) byRecord.get(row.from)?.push(row.to);
  return byRecord;
}

/** Runs a write in a transaction when it is more than one statement (it replaces links too). */
export const inTransactionIf = <T>(
  db: PaletteDb,
  several: boolean,
  write: (db: PaletteDb) => Promise<T>,
): Promise<T> => (several ? db.transaction().execute(write) : write(db));

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
    .selectFrom(table)
    .select(['created_by', 'team'])
    .where((eb) =>
      eb.or([eb('id', '=', idOrName), eb(sql`lower(name)`, '=', idOrName.toLowerCase())]),
    )
    .orderBy(sql`id = ${idOrName}`, 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && { createdBy: row.created_by, team: row.team };
}
