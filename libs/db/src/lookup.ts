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
