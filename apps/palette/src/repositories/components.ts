import { findByIdOrName } from '@platform/core';
import { jsonb, sql, type Insertable } from '@platform/db';
import type { ComponentRow, ComponentsTable, PaletteDb, TokenRow } from '../database.js';
import type { Status } from '../schemas/components.js';
import {
  deleteRecord,
  insertRecord,
  linkedIds,
  listNamed,
  updateRecord,
  type Page,
} from './records.js';

export type ComponentColumns = Omit<Insertable<ComponentsTable>, 'id' | 'created' | 'updated'>;

export interface ComponentFilter {
  status?: string;
  category?: string;
  tag?: string;
}

/** A component as a pattern or a rule lists it. */
export interface ComponentRef {
  id: string;
  name: string;
  status: Status;
}

export const findComponent = (db: PaletteDb, idOrName: string) =>
  findByIdOrName<ComponentRow>(db, 'components', idOrName, 'Component');

export const listComponents = (db: PaletteDb, filter: ComponentFilter, page: Page) =>
  listNamed(db, 'components', { ...filter }, page);

/** The token ids of each component, in one query. */
export const tokenIdsOf = (db: PaletteDb, componentIds: readonly string[]) =>
  linkedIds(db, 'component_tokens', componentIds);

export const insertComponent = (db: PaletteDb, values: ComponentColumns, tokenIds: string[]) =>
  insertRecord(db, 'components', values, { link: 'component_tokens', targets: tokenIds });

/** Changes a component; `tokenIds`, when given, replace its tokens. */
export const updateComponent = (
  db: PaletteDb,
  id: string,
  changes: Partial<ComponentColumns>,
  tokenIds?: string[],
) =>
  updateRecord(
    db,
    'components',
    id,
    changes,
    tokenIds && { link: 'component_tokens', targets: tokenIds },
  );

export const deleteComponent = (db: PaletteDb, id: string) => deleteRecord(db, 'components', id);

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
  link: 'pattern_components' | 'rule_components',
  id: string,
): Promise<ComponentRef[]> {
  return db
    .selectFrom(`${link} as l` as 'rule_components as l')
    .innerJoin('components as c', 'c.id', 'l.component_id')
    .select(['c.id', 'c.name', 'c.status'])
    .where(sql.ref(link === 'pattern_components' ? 'l.pattern_id' : 'l.rule_id'), '=', id)
    .orderBy('l.seq')
    .execute() as Promise<ComponentRef[]>;
}

/** The components with these ids (in no particular order). */
export function componentRefs(db: PaletteDb, ids: readonly string[]): Promise<ComponentRef[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('components')
    .select(['id', 'name', 'status'])
    .where('id', 'in', ids)
    .execute() as Promise<ComponentRef[]>;
}
