import { sql } from '@platform/db';
import type { PaletteDb } from '../database.js';
import { KINDS, SCORES, type Kind } from '../schemas/search.js';

/** Records of the kinds given that match the term, best first, then by name. */
export function searchRecords(db: PaletteDb, term: string, kinds: readonly Kind[], limit: number) {
  const q = term.toLowerCase();
  const score = sql<number>`(
    case when lower(name) = ${q} then ${SCORES.nameExact}
         when starts_with(lower(name), ${q}) then ${SCORES.namePrefix}
         when strpos(lower(name), ${q}) > 0 then ${SCORES.nameContains} else 0 end
    + case when strpos(lower(tags::text), ${q}) > 0 then ${SCORES.tag} else 0 end
    + case when strpos(lower(coalesce(description, '')), ${q}) > 0 then ${SCORES.description} else 0 end
  )::int`;
  const [first, ...rest] = kinds.map((kind) =>
    db
      .selectFrom(KINDS[kind] as 'tokens')
      .select([
        sql<Kind>`${kind}::text`.as('kind'),
        'id',
        'name',
        'description',
        score.as('score'),
      ]),
  );
  const all = rest.reduce((union, part) => union.unionAll(part), first);
  return db
    .selectFrom(all.as('hits'))
    .selectAll()
    .where('score', '>', 0)
    .orderBy('score', 'desc')
    .orderBy(sql`lower(name)`)
    .orderBy('kind')
    .limit(limit)
    .execute();
}
