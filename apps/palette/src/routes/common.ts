import { IsoTimestamp, Type, badRequest, conflict, notFound } from '@platform/core';
import { isUniqueViolation, selectByIdOrName, sql } from '@platform/db';

import { setLinks, type PaletteDb, type Table } from '../repository.js';

export const tags = ['palette'];

/** A name: 1-100 characters without a space at either end; unique case-insensitively. */
export const Name = (title: string) =>
  Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$', title });
export const Text = (maxLength = 2000) => Type.String({ maxLength });
export const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
  maxItems: 50,
  description: 'Up to 50 tags; repeats are dropped',
});
export const IdOrName = Type.Object({ idOrName: Type.String() });
export const Ref = Type.Object({ id: Type.String(), name: Type.String() });
export const Stamps = { created: IsoTimestamp, updated: IsoTimestamp };
export const stamps = (row: { created: Date; updated: Date }) => ({
  created: row.created.toISOString(),
  updated: row.updated.toISOString(),
});

export const unique = <T>(items: T[]) => [...new Set(items)];

const NOUNS: Record<Table, string> = {
  tokens: 'Token',
  components: 'Component',
  patterns: 'Pattern',
  standards: 'Standard',
  rules: 'Accessibility rule',
};

/** The record with that id, or else that name in any case (spec 2.1); NOT_FOUND otherwise. */
export async function find<Row>(db: PaletteDb, table: Table, idOrName: string): Promise<Row> {
  const row = await selectByIdOrName<Row>(db, table, idOrName);
  if (!row) throw notFound(NOUNS[table], idOrName);
  return row;
}

/** Ids of the records named (by id or name); BAD_REQUEST naming the first unknown one. */
export async function resolveAll(db: PaletteDb, table: Table, refs: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const ref of unique(refs)) {
    const row = await selectByIdOrName<{ id: string }>(db, table, ref);
    if (!row) throw badRequest(`Unknown ${NOUNS[table].toLowerCase()}: ${ref}`);
    ids.push(row.id);
  }
  return unique(ids);
}

export const nameTaken = (table: Table, name: string) =>
  conflict(`A ${NOUNS[table].toLowerCase()} named ${name} exists already`);

/** The fields that were sent (not undefined): what a partial update changes. */
export const sentFields = <T extends Record<string, unknown>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;

type Link = Parameters<typeof setLinks>[1];

/**
 * Updates a record and, when `links` is given, replaces its links, in one transaction. A name
 * another record has is 409.
 */
export async function updateRecord<Row>(
  db: PaletteDb,
  table: 'components' | 'patterns',
  id: string,
  changes: Record<string, unknown>,
  links?: { link: Link; columns: [string, string]; targets: string[] },
): Promise<Row> {
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable(table as 'patterns')
        .set({ ...changes, updated: sql`now()` } as never)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (links) await setLinks(trx, links.link, links.columns, id, links.targets);
      return row as unknown as Row;
    });
  } catch (error) {
    if (isUniqueViolation(error) && typeof changes.name === 'string')
      throw nameTaken(table, changes.name);
    throw error;
  }
}
