import { jsonb, sql } from '@platform/db';
import type { CommunicationDb, TemplateContent, TemplateRow } from '../database.js';

/** An app's template by id, else by name in any case. */
export async function findTemplate(
  db: CommunicationDb,
  appId: string,
  idOrName: string,
): Promise<TemplateRow | undefined> {
  const byId = await db
    .selectFrom('templates')
    .selectAll()
    .where('app_id', '=', appId)
    .where('id', '=', idOrName)
    .executeTakeFirst();
  return (
    byId ??
    db
      .selectFrom('templates')
      .selectAll()
      .where('app_id', '=', appId)
      .where(sql`lower(name)`, '=', idOrName.toLowerCase())
      .executeTakeFirst()
  );
}

export function templateById(db: CommunicationDb, id: string) {
  return db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The content of one version of a template. */
export async function templateVersion(db: CommunicationDb, id: string, version: number) {
  const row = await db
    .selectFrom('template_versions')
    .select('content')
    .where('template_id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return row?.content;
}

export function listTemplates(
  db: CommunicationDb,
  appId: string,
  filter: { category?: string },
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom('templates').selectAll().where('app_id', '=', appId);
  if (filter.category !== undefined) query = query.where('category', '=', filter.category);
  return query
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** A new template, version 1, and its version row. */
export function insertTemplate(
  db: CommunicationDb,
  row: { id: string; app_id: string; name: string; category: string; content: TemplateContent },
) {
  return db.transaction().execute(async (trx) => {
    const saved = await trx
      .insertInto('templates')
      .values({ ...row, version: 1, content: jsonb(row.content) })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('template_versions')
      .values({ template_id: row.id, version: 1, content: jsonb(row.content) })
      .execute();
    return saved;
  });
}

/** The next version of a template: its row updated and the version kept. */
export function updateTemplate(
  db: CommunicationDb,
  current: TemplateRow,
  changes: { name: string; category: string; content: TemplateContent },
) {
  return db.transaction().execute(async (trx) => {
    const saved = await trx
      .updateTable('templates')
      .set({
        name: changes.name,
        category: changes.category,
        content: jsonb(changes.content),
        version: sql`version + 1`,
        updated_at: sql`now()`,
      })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('template_versions')
      .values({ template_id: saved.id, version: saved.version, content: jsonb(changes.content) })
      .execute();
    return saved;
  });
}

export async function deleteTemplate(db: CommunicationDb, id: string) {
  await db.deleteFrom('templates').where('id', '=', id).execute();
}
