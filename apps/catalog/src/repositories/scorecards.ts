import { findByIdOrName } from '@platform/core';
import { jsonb, sql, type Insertable, type Updateable } from '@platform/db';
import type { CatalogDb, ScorecardsTable } from '../database.js';
import { labelSql, namedSql } from './named.js';

/** A page of scorecards by name. */
export function listScorecards(db: CatalogDb, page: { limit: number; offset: number }) {
  return db
    .selectFrom('scorecards')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Every scorecard (an evaluation applies them all). */
export const allScorecards = (db: CatalogDb) =>
  db
    .selectFrom('scorecards')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .execute();

/** How many scorecards there are. */
export const countScorecards = async (db: CatalogDb) =>
  Number(
    (
      await db
        .selectFrom('scorecards')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The scorecard of that id, else that name in any case; NOT_FOUND `Scorecard not found: x`. */
export const findScorecard = (db: CatalogDb, idOrName: string) =>
  findByIdOrName(db, 'scorecards', idOrName, 'Scorecard');

const jsonColumns = <T extends Updateable<ScorecardsTable>>(row: T) => ({
  ...row,
  rules: row.rules === undefined ? undefined : jsonb(row.rules),
  levels: row.levels === undefined ? undefined : jsonb(row.levels),
});

/** Stores a scorecard; a name taken throws the unique violation. */
export async function insertScorecard(db: CatalogDb, row: Insertable<ScorecardsTable>) {
  return db
    .insertInto('scorecards')
    .values(jsonColumns(row) as Insertable<ScorecardsTable>)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Changes the fields given; a name taken throws the unique violation. */
export async function updateScorecard(
  db: CatalogDb,
  id: string,
  changes: Updateable<ScorecardsTable>,
) {
  return db
    .updateTable('scorecards')
    .set({ ...jsonColumns(changes), version: sql`version + 1`, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes the scorecard and its results (ON DELETE CASCADE). */
export async function deleteScorecard(db: CatalogDb, id: string) {
  await db.deleteFrom('scorecards').where('id', '=', id).execute();
}

export interface ResultFilter {
  level?: string;
  service?: string;
  rule?: string;
  status?: 'pass' | 'fail' | 'unknown';
  limit: number;
  offset: number;
}

/** Results joined with their service's name and their scorecard's. */
function selectResults(db: CatalogDb) {
  return db
    .selectFrom('scorecard_results as r')
    .innerJoin('services as s', 's.id', 'r.service_id')
    .innerJoin('scorecards as c', 'c.id', 'r.scorecard_id')
    .selectAll('r')
    .select([labelSql('s').$castTo<string>().as('service_name'), 'c.name as scorecard_name']);
}

/**
 * A page of a scorecard's results by service name: `level` a level's name (any case) or `none`,
 * `service` a service (id or name), `rule` with `status` the results where that rule has it
 * (`rule` alone: where it fails).
 */
export function listResults(db: CatalogDb, scorecardId: string, filter: ResultFilter) {
  let query = selectResults(db).where('r.scorecard_id', '=', scorecardId);
  if (filter.level !== undefined)
    query =
      filter.level.toLowerCase() === 'none'
        ? query.where('r.level', 'is', null)
        : query.where(sql<boolean>`lower(r.level) = ${filter.level.toLowerCase()}`);
  if (filter.service !== undefined) query = query.where(namedSql(filter.service, 's'));
  if (filter.rule !== undefined) {
    const element = jsonb([{ rule: filter.rule, status: filter.status ?? 'fail' }]);
    query = query.where(sql<boolean>`r.rules @> ${element}::jsonb`);
  }
  return query
    .orderBy(sql`lower(s.name)`)
    .orderBy('s.id')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
}

/** A service's results on every scorecard, by scorecard name. */
export const serviceResults = (db: CatalogDb, serviceId: string) =>
  selectResults(db)
    .where('r.service_id', '=', serviceId)
    .orderBy(sql`lower(c.name)`)
    .execute();

export type ResultRow = Awaited<ReturnType<typeof serviceResults>>[number];
