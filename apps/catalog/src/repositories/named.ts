import { parseEntityRef } from '@backstage/catalog-model';
import { notFound } from '@platform/core';
import { sql, type RawBuilder, type Selectable } from '@platform/db';
import type { CatalogDatabase, CatalogDb } from '../database.js';

/**
 * Records by name in their namespace (issue 37). A path or field names a record by id, by
 * `namespace/name` (Backstage's reference, a kind before it allowed), or by a bare name, which is
 * in `default`; names in any case. A name that itself holds a slash still finds its record in
 * `default` (records made before namespaces).
 */
export interface Named {
  namespace: string;
  name: string;
}

export const DEFAULT_NAMESPACE = 'default';

/** `namespace/name` as parsed by Backstage's own parser; a bare name is in `default`. */
export function splitName(ref: string): Named {
  try {
    const parsed = parseEntityRef(ref, { defaultKind: 'any', defaultNamespace: DEFAULT_NAMESPACE });
    return { namespace: parsed.namespace, name: parsed.name };
  } catch {
    return { namespace: DEFAULT_NAMESPACE, name: ref };
  }
}

/** How a record is shown where a name is: its name, `namespace/name` outside `default`. */
export const refLabel = (namespace: string, name: string) =>
  namespace.toLowerCase() === DEFAULT_NAMESPACE ? name : `${namespace}/${name}`;

/** The same in SQL, for the names of linked records (`alias.namespace`, `alias.name`). */
export const labelSql = (alias: string) =>
  sql<string | null>`case when lower(${sql.ref(`${alias}.namespace`)}) = 'default'
    then ${sql.ref(`${alias}.name`)}
    else ${sql.ref(`${alias}.namespace`)} || '/' || ${sql.ref(`${alias}.name`)} end`;

/** The key a record is unique by: `namespace/name`, lower case. */
export const keyOf = (namespace: string, name: string) =>
  `${namespace.toLowerCase()}/${name.toLowerCase()}`;

/**
 * The condition: the record's key is one of these `[namespace, name]` (any case); false for none.
 * The unique index on `(lower(namespace), lower(name))` answers the first two arrays (a superset:
 * every namespace with every name), the third keeps the pairs asked; three parameters however
 * many pairs (a row-value list of 10,000 would be planned as 10,000 ORs).
 */
export function keyInSql(pairs: ReadonlyArray<readonly [string, string]>, alias?: string) {
  if (pairs.length === 0) return sql<boolean>`false`;
  const col = (c: string) => sql.ref(alias ? `${alias}.${c}` : c);
  const lower = pairs.map(([namespace, name]) => [namespace.toLowerCase(), name.toLowerCase()]);
  const list = (values: string[]) => [...new Set(values)];
  const namespaces = list(lower.map(([namespace]) => namespace));
  const names = list(lower.map(([, name]) => name));
  // A namespace holds no slash: `namespace/name` is one pair's key only.
  const keys = list(lower.map(([namespace, name]) => `${namespace}/${name}`));
  return sql<boolean>`(lower(${col('namespace')}) = any(${namespaces}::text[])
    and lower(${col('name')}) = any(${names}::text[])
    and lower(${col('namespace')}) || '/' || lower(${col('name')}) = any(${keys}::text[]))`;
}

/** The condition: the record this reference names (`alias` the table's, when joined). */
export function namedSql(ref: string, alias?: string): RawBuilder<boolean> {
  const { namespace, name } = splitName(ref);
  const col = (c: string) => sql.ref(alias ? `${alias}.${c}` : c);
  const keys: Array<[string, string]> = [
    [namespace, name],
    [DEFAULT_NAMESPACE, ref],
  ];
  return sql<boolean>`(${col('id')} = ${ref} or ${keyInSql(keys, alias)})`;
}

/** The tables of named records. */
export type NamedTable = 'services' | 'systems' | 'owners' | 'apis' | 'domains' | 'templates';

/** The record of that id, else namespace and name; undefined when there is none. */
export async function selectNamed<T extends NamedTable>(
  db: CatalogDb,
  table: T,
  ref: string,
): Promise<Selectable<CatalogDatabase[T]> | undefined> {
  return (await db
    .selectFrom(table as 'domains')
    .selectAll()
    .where(namedSql(ref))
    .orderBy(sql`id = ${ref}`, 'desc')
    .orderBy(keyInSql([[splitName(ref).namespace, splitName(ref).name]]), 'desc')
    .limit(1)
    .executeTakeFirst()) as Selectable<CatalogDatabase[T]> | undefined;
}

/** The same, NOT_FOUND `<resource> not found: ref` when there is none. */
export async function findNamed<T extends NamedTable>(
  db: CatalogDb,
  table: T,
  ref: string,
  resource: string,
) {
  const row = await selectNamed(db, table, ref);
  if (!row) throw notFound(resource, ref);
  return row;
}

/** The ids of the records named (ids, `namespace/name`, names), in one query; undefined when unknown. */
export async function namedIds(
  db: CatalogDb,
  table: NamedTable,
  refs: readonly string[],
): Promise<Array<string | undefined>> {
  if (refs.length === 0) return [];
  const split = refs.map(splitName);
  const keys = split.map(({ namespace, name }) => keyOf(namespace, name));
  const bare = refs.map((ref) => keyOf(DEFAULT_NAMESPACE, ref));
  const pairs = [
    ...split.map(({ namespace, name }) => [namespace, name] as const),
    ...refs.map((ref) => [DEFAULT_NAMESPACE, ref] as const),
  ];
  const rows = await db
    .selectFrom(table as 'domains')
    .select(['id', 'namespace', 'name'])
    .where((eb) => eb.or([eb('id', 'in', refs), keyInSql(pairs)]))
    .execute();
  const byId = new Set(rows.map((row) => row.id));
  const byKey = new Map(rows.map((row) => [keyOf(row.namespace, row.name), row.id]));
  return refs.map((ref, i) => (byId.has(ref) ? ref : (byKey.get(keys[i]) ?? byKey.get(bare[i]))));
}

/**
 * The owner made before names lost their slash whose name is `namespace/name` in `default`: the
 * team of an owner `name` in `namespace` would be the same text, so that owner is not made.
 */
export async function slashTwin(db: CatalogDb, namespace: string, name: string) {
  if (namespace.toLowerCase() === DEFAULT_NAMESPACE) return undefined;
  return db
    .selectFrom('owners')
    .select(['id', 'name'])
    .where(keyInSql([[DEFAULT_NAMESPACE, `${namespace}/${name}`]]))
    .executeTakeFirst();
}
