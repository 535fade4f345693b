import { jsonb, sql } from '@platform/db';
import type { ComponentRow, PaletteDb, TokenRow } from '../database.js';
import type { ComponentRef } from '../schemas/components.js';
import { LINKS } from './records.js';

/**
 * Appends an item to a jsonb list unless one of that name (in any case) is there, in one statement
 * so that concurrent adds cannot both win. Undefined when the name is taken.
 */
export function appendItem(
  db: PaletteDb,
  id: string,
  column: 'props' | 'variants' | 'examples',
  item: { name: string },
): Promise<ComponentRow | undefined> {
  return db
    .updateTable('components')
    .set({
      [column]: sql`${sql.ref(column)} || ${jsonb([item])}::jsonb`,
      updated: sql`now()`,
    } as never)
    .where('id', '=', id)
    .where(
      sql<boolean>`not exists (select 1 from jsonb_array_elements(${sql.ref(column)}) as e(item) where lower(e.item->>'name') = ${item.name.toLowerCase()})`,
    )
    .returningAll()
    .executeTakeFirst();
}

/** The token records a component uses, the patterns that contain it, the rules that apply to it. */
export async function componentRelations(db: PaletteDb, id: string) {
  const tokens = (await db
    .selectFrom('component_tokens as ct')
    .innerJoin('tokens as t', 't.id', 'ct.token_id')
    .selectAll('t')
    .where('ct.component_id', '=', id)
    .orderBy('ct.seq')
    .execute()) as TokenRow[];
  const patterns = await db
    .selectFrom('pattern_components as pc')
    .innerJoin('patterns as p', 'p.id', 'pc.pattern_id')
    .select(['p.id', 'p.name'])
    .where('pc.component_id', '=', id)
    .orderBy(sql`lower(p.name)`)
    .execute();
  const rules = await db
    .selectFrom('rule_components as rc')
    .innerJoin('rules as r', 'r.id', 'rc.rule_id')
    .select(['r.id', 'r.name', 'r.severity', 'r.wcag', 'r.level'])
    .where('rc.component_id', '=', id)
    .orderBy(sql`lower(r.name)`)
    .execute();
  return { tokens, patterns, rules };
}

/** The components a pattern or a rule links to, in the order linked. */
export function componentsLinkedBy(
  db: PaletteDb,
  table: 'patterns' | 'rules',
  id: string,
): Promise<ComponentRef[]> {
  const { link, from } = LINKS[table];
  return db
    .selectFrom(`${link} as l` as 'rule_components as l')
    .innerJoin('components as c', 'c.id', 'l.component_id')
    .select(['c.id', 'c.name', 'c.status'])
    .where(sql.ref(`l.${from}`), '=', id)
    .orderBy('l.seq')
    .execute() as Promise<ComponentRef[]>;
}
