import { sql, type Kysely, type Selectable } from 'kysely';

/**
 * Spec 2.1: an exact (case-sensitive) id wins; otherwise a case-insensitive name match.
 * Returns undefined when neither matches, so the caller reports NOT_FOUND.
 */
export function selectByIdOrName<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  idOrName: string,
): Promise<Selectable<DB[T]> | undefined> {
  // Every table of the platform has `id` and `name`; Kysely cannot know that of a generic table.
  return (db as unknown as Kysely<Record<string, { id: string; name: string }>>)
    .selectFrom(table as string)
    .selectAll()
    .where((eb) =>
      eb.or([eb('id', '=', idOrName), eb(sql`lower(name)`, '=', idOrName.toLowerCase())]),
    )
    .orderBy(sql`id = ${idOrName}`, 'desc')
    .limit(1)
    .executeTakeFirst() as Promise<Selectable<DB[T]> | undefined>;
}

/**
 * Many at once, in one query: the id of each reference (an exact id, else a name in any case), or
 * undefined for a reference that matches none. What a body listing links by id or name needs.
 */
export async function idsByIdOrName<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  refs: readonly string[],
): Promise<Array<string | undefined>> {
  if (refs.length === 0) return [];
  const rows = await (db as unknown as Kysely<Record<string, { id: string; name: string }>>)
    .selectFrom(table as string)
    .select(['id', sql<string>`lower(name)`.as('key')])
    .where((eb) =>
      eb.or([
        eb('id', 'in', refs),
        eb(
          sql`lower(name)`,
          'in',
          refs.map((r) => r.toLowerCase()),
        ),
      ]),
    )
    .execute();
  const ids = new Set(rows.map((row) => row.id));
  const byName = new Map(rows.map((row) => [row.key, row.id]));
  return refs.map((ref) => (ids.has(ref) ? ref : byName.get(ref.toLowerCase())));
}
