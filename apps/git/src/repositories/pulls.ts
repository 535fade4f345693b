import { sql } from '@platform/db';
import type { GitDb, PullRow, PullsTable } from '../database.js';

export function listPulls(
  db: GitDb,
  repositoryId: string,
  state: 'open' | 'closed' | 'all',
  page: { limit: number; offset: number },
): Promise<PullRow[]> {
  let query = db.selectFrom('pulls').selectAll().where('repository_id', '=', repositoryId);
  if (state !== 'all') query = query.where('state', '=', state);
  return query.orderBy('number', 'desc').limit(page.limit).offset(page.offset).execute();
}

export const findPull = (db: GitDb, repositoryId: string, number: number) =>
  db
    .selectFrom('pulls')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .where('number', '=', number)
    .executeTakeFirst();

/** The next number of the repository, in one statement (the unique key settles a race: retry). */
export const insertPull = (
  db: GitDb,
  row: Omit<
    PullsTable,
    'number' | 'created_at' | 'updated_at' | 'merged' | 'merge_commit_sha' | 'merged_at' | 'state'
  >,
) =>
  db
    .insertInto('pulls')
    .values({
      ...row,
      state: 'open',
      merged: false,
      merge_commit_sha: null,
      merged_at: null,
      number: db
        .selectFrom('pulls')
        .select(sql<number>`coalesce(max(number), 0) + 1`.as('next'))
        .where('repository_id', '=', row.repository_id),
    })
    .returningAll()
    .executeTakeFirstOrThrow();

/** Marks an open pull request merged; undefined when it was not open any more. */
export const markMerged = (db: GitDb, id: string, sha: string) =>
  db
    .updateTable('pulls')
    .set({
      state: 'closed',
      merged: true,
      merge_commit_sha: sha,
      merged_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('state', '=', 'open')
    .returningAll()
    .executeTakeFirst();
