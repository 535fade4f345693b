import { sql } from '@platform/db';
import type { BranchProtectionsTable, GitDb, ReviewsTable } from '../database.js';

export const listProtections = (db: GitDb, repositoryId: string) =>
  db
    .selectFrom('branch_protections')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .orderBy('branch')
    .execute();

export const findProtection = (db: GitDb, repositoryId: string, branch: string) =>
  db
    .selectFrom('branch_protections')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .where('branch', '=', branch)
    .executeTakeFirst();

/** Creates or replaces the rule of one branch. */
export const upsertProtection = (
  db: GitDb,
  row: Omit<BranchProtectionsTable, 'created_at' | 'updated_at'>,
) =>
  db
    .insertInto('branch_protections')
    .values(row)
    .onConflict((c) =>
      c.columns(['repository_id', 'branch']).doUpdateSet({
        require_pull_request: row.require_pull_request,
        required_approvals: row.required_approvals,
        updated_at: sql`now()`,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();

export const deleteProtection = (db: GitDb, repositoryId: string, branch: string) =>
  db
    .deleteFrom('branch_protections')
    .where('repository_id', '=', repositoryId)
    .where('branch', '=', branch)
    .returningAll()
    .executeTakeFirst();

export const insertReview = (db: GitDb, row: Omit<ReviewsTable, 'created_at'>) =>
  db.insertInto('reviews').values(row).returningAll().executeTakeFirstOrThrow();

export const listReviews = (db: GitDb, repositoryId: string, pullNumber: number) =>
  db
    .selectFrom('reviews')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .where('pull_number', '=', pullNumber)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
