import { sql, type RawBuilder } from '@platform/db';
import type { CatalogDb } from '../database.js';
import type { KINDS } from '../schemas/search.js';

type Kind = (typeof KINDS)[number];

/**
 * The lower-cased text each table's candidate filter tests: exactly the expressions of its trigram
 * index (migration 2026-12-02-search-trigrams), so that the planner can serve the filter with it.
 * Each holds the record's name, keywords (as their JSON text) and body (see `documents`).
 */
const SEARCHED = {
  service: sql<string>`lower(name || ' ' || tags::text || ' ' || coalesce(description, ''))`,
  system: sql<string>`lower(name || ' ' || tags::text || ' ' || coalesce(description, ''))`,
  owner: sql<string>`lower(name || ' ' || coalesce(email || ' ' || team, email, team, ''))`,
  api: sql<string>`lower(name || ' ' || tags::text || ' ' || type || ' ' || coalesce(description, ''))`,
};

/** `word` as literal text in a LIKE pattern (backslash is LIKE's default escape character). */
const likeText = (word: string) => word.replace(/[\\%_]/g, '\\$&');

/**
 * Whether `text` contains every one of `words`: a cheap test, so that only candidates are ranked.
 * A word of 3 characters or more is a LIKE pattern, which the trigram index serves; a shorter one
 * has no trigram to look up, and is tested on the rows the others found (or on every row).
 */
function containsAll(text: RawBuilder<string>, words: string[]) {
  const tests = words.map((word) =>
    [...word].length >= 3
      ? sql<boolean>`${text} like ${`%${likeText(word)}%`}`
      : sql<boolean>`strpos(${text}, ${word}) > 0`,
  );
  return sql<boolean>`(${sql.join(tests, sql` and `)})`;
}

/**
 * Everything search looks through, alike: services, systems, owners and APIs (or those of `kind`)
 * containing every one of `words`, each with the `keywords` matched as tags (an API's type besides
 * its tags) and the `body` matched as its description (an owner's email and team).
 */
function documents(db: CatalogDb, words: string[], kind?: string) {
  const label = (name: Kind) => sql<string>`${name}::text`.as('kind');
  const body = sql<string>`coalesce(description, '')`.as('body');
  // Another kind than `kind` is a constant false, which the planner drops with its table.
  const wanted = (name: Kind) =>
    kind === undefined || kind === name ? containsAll(SEARCHED[name], words) : sql<boolean>`false`;
  return db
    .selectFrom('services')
    .select([label('service'), 'id', 'name', 'description', 'tags', sql`tags`.as('keywords'), body])
    .where(wanted('service'))
    .unionAll(
      db
        .selectFrom('systems')
        .select([
          label('system'),
          'id',
          'name',
          'description',
          'tags',
          sql`tags`.as('keywords'),
          body,
        ])
        .where(wanted('system')),
    )
    .unionAll(
      db
        .selectFrom('owners')
        .select([
          label('owner'),
          'id',
          'name',
          sql<string | null>`null::text`.as('description'),
          sql<string[]>`'[]'::jsonb`.as('tags'),
          sql`'[]'::jsonb`.as('keywords'),
          sql<string>`concat_ws(' ', email, team)`.as('body'),
        ])
        .where(wanted('owner')),
    )
    .unionAll(
      db
        .selectFrom('apis')
        .select([
          label('api'),
          'id',
          'name',
          'description',
          'tags',
          sql`tags || jsonb_build_array(type)`.as('keywords'),
          body,
        ])
        .where(wanted('api')),
    );
}

/**
 * Records matching `phrase` (lower case, trimmed) or, failing that, every one of its `words` in
 * any order, each with the rank of its best match, best first, then by name. Ranks: 0 exact name,
 * 1 name prefix, 2 name contains, 3 every word in the name, 4 exact tag, 5 tag contains,
 * 6 description contains, 7 every word somewhere (name, tags or description).
 */
export function search(
  db: CatalogDb,
  phrase: string,
  words: string[],
  limit: number,
  kind?: string,
) {
  return searchQuery(db, phrase, words, limit, kind).execute();
}

/**
 * The plan PostgreSQL (or PGlite) chooses for a search, as EXPLAIN prints it: how the candidates
 * are found (the tests check that the trigram indexes serve them).
 */
export async function explainSearch(
  db: CatalogDb,
  phrase: string,
  words: string[],
  limit: number,
  kind?: string,
) {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${searchQuery(
    db,
    phrase,
    words,
    limit,
    kind,
  )}`.execute(db);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

function searchQuery(db: CatalogDb, phrase: string, words: string[], limit: number, kind?: string) {
  const name = sql<string>`lower(d.name)`;
  const body = sql<string>`lower(d.body)`;
  const contains = (text: RawBuilder<string>, term: string) =>
    sql<boolean>`strpos(${text}, ${term}) > 0`;
  const anyKeyword = (test: (keyword: RawBuilder<string>) => RawBuilder<boolean>) =>
    sql<boolean>`exists (select 1 from jsonb_array_elements_text(d.keywords) as k(word) where ${test(sql<string>`lower(k.word)`)})`;
  const all = (test: (word: string) => RawBuilder<boolean>) =>
    sql<boolean>`(${sql.join(words.map(test), sql` and `)})`;
  const anywhere = (word: string) =>
    sql<boolean>`(${contains(name, word)} or ${anyKeyword((k) => contains(k, word))} or ${contains(body, word)})`;
  const rank = sql<number>`case
    when ${name} = ${phrase} then 0
    when starts_with(${name}, ${phrase}) then 1
    when ${contains(name, phrase)} then 2
    when ${all((word) => contains(name, word))} then 3
    when ${anyKeyword((k) => sql<boolean>`${k} = ${phrase}`)} then 4
    when ${anyKeyword((k) => contains(k, phrase))} then 5
    when ${contains(body, phrase)} then 6
    when ${all(anywhere)} then 7
  end`;
  const candidates = db
    .selectFrom(documents(db, words, kind).as('d'))
    .select(['d.kind', 'd.id', 'd.name', 'd.description', 'd.tags', rank.as('rank')]);
  return db
    .selectFrom(candidates.as('hits'))
    .selectAll()
    .where('rank', 'is not', null)
    .orderBy('rank')
    .orderBy(sql`lower(name)`)
    .orderBy('kind')
    .orderBy('id')
    .limit(limit);
}
