import { sql, type RawBuilder } from '@platform/db';
import type { CatalogDb } from '../database.js';

/**
 * Services matching `term` (lower case, trimmed), each with the rank of its best match, best
 * first, then by name. Ranks: 0 exact name, 1 name prefix, 2 name contains, 3 exact tag,
 * 4 tag contains, 5 description contains.
 */
export function searchServices(db: CatalogDb, term: string, limit: number) {
  const anyTag = (test: RawBuilder<boolean>) =>
    sql<boolean>`exists (select 1 from jsonb_array_elements_text(s.tags) as t(tag) where ${test})`;
  const rank = sql<number>`case
    when lower(s.name) = ${term} then 0
    when starts_with(lower(s.name), ${term}) then 1
    when strpos(lower(s.name), ${term}) > 0 then 2
    when ${anyTag(sql<boolean>`lower(t.tag) = ${term}`)} then 3
    when ${anyTag(sql<boolean>`strpos(lower(t.tag), ${term}) > 0`)} then 4
    when strpos(lower(coalesce(s.description, '')), ${term}) > 0 then 5
  end`;
  return db
    .selectFrom((inner) =>
      inner
        .selectFrom('services as s')
        .select(['s.id', 's.name', 's.description', 's.tags', rank.as('rank')])
        // A cheap test first, so that only candidates are ranked (tags as their JSON text).
        .where(
          sql<boolean>`strpos(lower(s.name || ' ' || s.tags::text || ' ' || coalesce(s.description, '')), ${term}) > 0`,
        )
        .as('hits'),
    )
    .selectAll()
    .where('rank', 'is not', null)
    .orderBy('rank')
    .orderBy(sql`lower(name)`)
    .limit(limit)
    .execute();
}
