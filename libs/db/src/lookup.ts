import { sql, type Kysely } from 'kysely';

/**
 * Spec 2.1: an exact (case-sensitive) id wins; otherwise a case-insensitive name match.
 * Returns undefined when neither matches, so the caller reports NOT_FOUND.
 */
export function selectByIdOrName<Row>(
  db: Kysely<any>, // eslint-disable-line @typescript-eslint/no-explicit-any
  table: string,
  idOrName: string,
): Promise<Row | undefined> {
  return db
    .selectFrom(table)
    .selectAll()
    .where((eb) =>
      eb.or([eb('id', '=', idOrName), eb(sql`lower(name)`, '=', idOrName.toLowerCase())]),
    )
    .orderBy(sql`id = ${idOrName}`, 'desc')
    .limit(1)
    .executeTakeFirst() as Promise<Row | undefined>;
}
