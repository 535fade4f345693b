import { findByIdOrName, newId, type Static } from '@platform/core';
import { jsonb, sql, type Updateable } from '@platform/db';
import type { New, PaletteDb, TokenRow, TokensTable } from '../database.js';
import { tokenPath, type TokenListQuery } from '../schemas/tokens.js';
import { hasTag } from './records.js';

/** A page of tokens by name, filtered; one query. */
export function listTokens(db: PaletteDb, filter: Static<typeof TokenListQuery>) {
  let query = db.selectFrom('tokens').selectAll();
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  if (filter.group !== undefined) query = query.where('group', '=', filter.group);
  if (filter.tag !== undefined) query = query.where(hasTag(filter.tag));
  return query
    .orderBy(sql`lower(name)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/** The token with that id, else that name in any case; NOT_FOUND `Token not found: x`. */
export const findToken = (db: PaletteDb, idOrName: string) =>
  findByIdOrName(db, 'tokens', idOrName, 'Token');

/** The token with that id; undefined when there is none. */
export const tokenById = (db: PaletteDb, id: string) =>
  db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();

/** Inserts a token with a new id; a name, cssVariable or tailwindKey taken throws the violation. */
export const insertToken = (db: PaletteDb, token: New<TokensTable>) =>
  db
    .insertInto('tokens')
    .values({ ...token, id: newId(), tags: jsonb(token.tags) })
    .returningAll()
    .executeTakeFirstOrThrow();

/** Changes the columns given (and `updated`); a value taken throws the unique violation. */
export const updateToken = (db: PaletteDb, id: string, changes: Updateable<TokensTable>) =>
  db
    .updateTable('tokens')
    .set({ ...changes, tags: changes.tags && jsonb(changes.tags), updated: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Deletes a token. */
export async function deleteToken(db: PaletteDb, id: string) {
  await db.deleteFrom('tokens').where('id', '=', id).execute();
}

/** Every token by name: what an export contains. */
export const allTokens = (db: PaletteDb) =>
  db
    .selectFrom('tokens')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .execute();

/** Whether a token other than `exceptId` has that name (in any case). */
export async function otherTokenNamed(db: PaletteDb, name: string, exceptId = '') {
  const other = await db
    .selectFrom('tokens')
    .select('id')
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return other !== undefined;
}

/** The components that use a token (by name) and the patterns that contain such a component. */
export async function tokenUsage(db: PaletteDb, id: string) {
  const components = await db
    .selectFrom('component_tokens as ct')
    .innerJoin('components as c', 'c.id', 'ct.component_id')
    .select(['c.id', 'c.name'])
    .where('ct.token_id', '=', id)
    .orderBy(sql`lower(c.name)`)
    .execute();
  const patterns = await db
    .selectFrom('pattern_components as pc')
    .innerJoin('patterns as p', 'p.id', 'pc.pattern_id')
    .innerJoin('component_tokens as ct', 'ct.component_id', 'pc.component_id')
    .select(['p.id', 'p.name'])
    .where('ct.token_id', '=', id)
    .distinct()
    .orderBy('p.name')
    .execute();
  const tokens = await tokensReferringTo(db, id);
  return { components, patterns, tokens };
}

/**
 * The token an alias path names: the one whose `group.name` is the path (the DTCG export's path),
 * else the one named like the path with `-` for its dots (`{color.blue.500}` -> `color-blue-500`).
 */
export async function tokenByPath(db: PaletteDb, path: string) {
  const rows = await db
    .selectFrom('tokens')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb(sql`lower(coalesce(path, concat_ws('.', "group", name)))`, '=', path.toLowerCase()),
        eb(sql`lower(name)`, '=', path.replace(/\./g, '-').toLowerCase()),
      ]),
    )
    .execute();
  const byPath = rows.find((r) => tokenPath(r).toLowerCase() === path.toLowerCase());
  return byPath ?? rows[0];
}

/** The tokens of these ids (the targets of aliases), in one query. */
export async function tokensByIds(db: PaletteDb, ids: readonly (string | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map<string, TokenRow>();
  const rows = await db.selectFrom('tokens').selectAll().where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The chain of aliases from a token: the ids it refers to, those they refer to, and so on, each
 * with the token that led to it (to name a cycle). One recursive query.
 */
export async function aliasChain(db: PaletteDb, from: string) {
  const tokens = sql.table('palette.tokens');
  const { rows } = await sql<{ id: string; name: string; via: string | null }>`
    with recursive chain(id, via, depth) as (
      select ${from}::text, null::text, 0
      union
      select r.ref, c.id, c.depth + 1
      from chain c
      join ${tokens} t on t.id = c.id
      cross join lateral (values (t.value_default_ref), (t.value_dark_ref)) as r(ref)
      where r.ref is not null and c.depth < 100
    )
    select distinct on (c.id) c.id, t.name, c.via
    from chain c join ${tokens} t on t.id = c.id
    order by c.id, c.depth`.execute(db);
  return rows;
}

/** The tokens whose value or dark value is an alias of the token, by name. */
export const tokensReferringTo = (db: PaletteDb, id: string) =>
  db
    .selectFrom('tokens')
    .select(['id', 'name'])
    .where((eb) =>
      eb.or([
        eb('value_default_ref', '=', id),
        eb('value_dark_ref', '=', id),
        eb(
          'id',
          'in',
          eb.selectFrom('token_mode_values').select('token_id').where('value_ref', '=', id),
        ),
      ]),
    )
    .orderBy(sql`lower(name)`)
    .execute();

/**
 * Serialises the writes that may add an alias (to the end of the transaction), so that two
 * concurrent ones cannot each close half of a cycle.
 */
export async function lockAliases(db: PaletteDb) {
  await sql`select pg_advisory_xact_lock(hashtext('palette.tokens.aliases'))`.execute(db);
}

/** The values of these tokens in modes other than light and dark: id -> mode -> value. */
export async function modeValuesByToken(db: PaletteDb, ids: string[]) {
  const byToken = new Map<string, Record<string, string>>();
  if (ids.length === 0) return byToken;
  const rows = await db
    .selectFrom('token_mode_values')
    .select(['token_id', 'mode', 'value'])
    .where('token_id', 'in', ids)
    .orderBy('mode')
    .execute();
  for (const r of rows) byToken.set(r.token_id, { ...byToken.get(r.token_id), [r.mode]: r.value });
  return byToken;
}
