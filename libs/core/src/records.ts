import { isUniqueViolation, selectByIdOrName, type Kysely, type Selectable } from '@platform/db';
import { conflict, notFound } from './errors.js';

/**
 * The record with exactly that id, or else the one with that name in any case (spec 2.1);
 * NOT_FOUND `<Resource> not found: <idOrName>` when there is none.
 */
export async function findByIdOrName<DB, T extends keyof DB & string>(
  db: Kysely<DB>,
  table: T,
  idOrName: string,
  resource: string,
): Promise<Selectable<DB[T]>> {
  const row = await selectByIdOrName(db, table, idOrName);
  if (!row) throw notFound(resource, idOrName);
  return row;
}

/**
 * Runs a write and turns a unique violation into 409 CONFLICT with `message`: the database's
 * unique index decides, so two concurrent writes of one name cannot both succeed. The write is a
 * function, started here, so that its failure is always awaited and handled.
 */
export async function orConflict<T>(write: () => Promise<T>, message: string): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}

/**
 * `A <resource> named <name> exists already`, the 409 of a name taken. The article is the
 * caller's: the services published before this helper say `A` even before a vowel.
 */
export const nameTaken = (resource: string, name: string, article: 'A' | 'An' = 'A') =>
  `${article} ${resource.toLowerCase()} named ${name} exists already`;

/** The items without repeats, in their first order (tags, references). */
export const unique = <T>(items: readonly T[]) => [...new Set(items)];
