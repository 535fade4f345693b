import { sql, type RawBuilder } from '@platform/db';
import type { CatalogDb } from '../database.js';
import type { KINDS } from '../schemas/search.js';

/**
 * Everything search looks through, alike: services, systems, owners and APIs, each with the
 * `keywords` matched as tags (an API's type besides its tags) and the `body` matched as its
 * description (an owner's email and team).
 */
function documents(db: CatalogDb) {
  const kind = (name: (typeof KINDS)[number]) => sql<string>`${name}::text`.as('kind');
  const body = sql<string>`coalesce(description, '')`.as('body');
  return db
    .selectFrom('services')
    .select([kind('service'), 'id', 'name', 'description', 'tags', sql`tags`.as('keywords'), body])
    .unionAll(
      db
        .selectFrom('systems')
        .select([
          kind('system'),
          'id',
          'name',
          'description',
          'tags',
          sql`tags`.as('keywords'),
          body,
        ]),
    )
    .unionAll(
      db
        .selectFrom('owners')
        .select([
          kind('owner'),
          'id',
          'name',
          sql<string | null>`null::text`.as('description'),
          sql<string[]>`'[]'::jsonb`.as('tags'),
          sql`'[]'::jsonb`.as('keywords'),
          sql<string>`concat_ws(' ', email, team)`.as('body'),
        ]),
    )
    .unionAll(
      db
        .selectFrom('apis')
        .select([
          kind('api'),
          'id',
          'name',
          'description',
          'tags',
          sql`tags || jsonb_build_array(type)`.as('keywords'),
          body,
        ]),
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
  // A cheap test first, so that only candidates are ranked (keywords as their JSON text).
  const haystack = sql<string>`lower(d.name || ' ' || d.keywords::text || ' ' || d.body)`;
  let candidates = db
    .selectFrom(documents(db).as('d'))
    .select(['d.kind', 'd.id', 'd.name', 'd.description', 'd.tags', rank.as('rank')])
    .where(all((word) => contains(haystack, word)));
  if (kind !== undefined) candidates = candidates.where('d.kind', '=', kind);
  return db
    .selectFrom(candidates.as('hits'))
    .selectAll()
    .where('rank', 'is not', null)
    .orderBy('rank')
    .orderBy(sql`lower(name)`)
    .orderBy('kind')
    .orderBy('id')
    .limit(limit)
    .execute();
}
