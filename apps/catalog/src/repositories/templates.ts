import { notFound, type Static } from '@platform/core';
import { sql } from '@platform/db';
import type { CatalogDb } from '../database.js';
import type { TemplateListQuery } from '../schemas/templates.js';
import { labelSql, namedSql, selectNamed } from './named.js';

/** Templates with their owner as shown. */
const selectTemplates = (db: CatalogDb) =>
  db
    .selectFrom('templates as g')
    .leftJoin('owners as l', 'l.id', 'g.owner_id')
    .selectAll('g')
    .select(labelSql('l').as('owner'));

export type TemplateRow = Awaited<ReturnType<typeof findTemplate>>;

/** A page of templates by name, filtered; one query. */
export function listTemplates(db: CatalogDb, filter: Static<typeof TemplateListQuery>) {
  let query = selectTemplates(db);
  if (filter.owner !== undefined) query = query.where(namedSql(filter.owner, 'l'));
  if (filter.type !== undefined)
    query = query.where(sql`lower(g.type)`, '=', filter.type.toLowerCase());
  if (filter.namespace !== undefined)
    query = query.where(sql`lower(g.namespace)`, '=', filter.namespace.toLowerCase());
  return query
    .orderBy(sql`lower(g.name)`)
    .orderBy(sql`lower(g.namespace)`)
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/** The template of that id, `namespace/name` or name; NOT_FOUND `Template not found: x`. */
export async function findTemplate(db: CatalogDb, idOrName: string) {
  const found = await selectNamed(db, 'templates', idOrName);
  const row = found && (await selectTemplates(db).where('g.id', '=', found.id).executeTakeFirst());
  if (!row) throw notFound('Template', idOrName);
  return row;
}
