import { isForeignKeyViolation, sql, type Insertable, type Kysely } from '@platform/db';
import { SCHEMA, type CatalogDb, type ScorecardResultsTable } from '../database.js';
import { labelSql } from './named.js';

// The SQL of scorecard evaluations (domain/scorecards/evaluate.ts): what a rule reads of a
// service, the services changed since their last evaluation, and the writing of results.

/** Results written per statement (one jsonb parameter each, whatever their number). */
export const RESULT_CHUNK = 5000;

/** What a rule reads of a service: its own record, with its owner and system by name. */
function selectScored(db: CatalogDb) {
  return db
    .selectFrom('services as s')
    .leftJoin('owners as o', 'o.id', 's.owner_id')
    .leftJoin('systems as sy', 'sy.id', 's.system_id')
    .select([
      's.id',
      's.name',
      's.description',
      's.lifecycle',
      's.links',
      's.annotations',
      's.updated_at',
      labelSql('o').as('owner'),
      labelSql('sy').as('system'),
      // When it was read, by the database's clock: the result's evaluated_at.
      sql<Date>`now()`.as('read_at'),
    ]);
}

export type ScoredRow = Awaited<ReturnType<typeof scoredServices>>[number];

/** These services (ids) by id, or a page of all by id after `after` (keyset paging). */
export function scoredServices(
  db: CatalogDb,
  which: { ids: readonly string[] } | { after: string | null; limit: number },
) {
  const query = selectScored(db).orderBy('s.id');
  if ('ids' in which)
    return which.ids.length === 0
      ? Promise.resolve([])
      : query.where('s.id', 'in', which.ids).execute();
  return (which.after === null ? query : query.where('s.id', '>', which.after))
    .limit(which.limit)
    .execute();
}

export type NewResult = Omit<Insertable<ScorecardResultsTable>, 'evaluated_at'> & {
  evaluated_at: Date;
};

const COLUMNS = [
  'scorecard_id',
  'service_id',
  'level',
  'rank',
  'passed',
  'total',
  'rules',
  'evaluated_at',
  'version',
] as const;

/** One statement: the rows whose service and scorecard (at that version) exist, in key order. */
function storeChunk(db: CatalogDb, rows: readonly NewResult[]) {
  const table = (name: string) => sql.id(SCHEMA, name);
  return db
    .insertInto('scorecard_results')
    .columns([...COLUMNS])
    .expression(
      sql`select ${sql.join(COLUMNS.map((c) => sql.ref(`v.${c}`)))}
        from jsonb_populate_recordset(null::${table('scorecard_results')}, ${JSON.stringify(rows)}::jsonb) v
        join ${table('scorecards')} c on c.id = v.scorecard_id and c.version = v.version
        join ${table('services')} s on s.id = v.service_id
        order by v.scorecard_id, v.service_id`,
    )
    .onConflict((oc) =>
      oc
        .columns(['scorecard_id', 'service_id'])
        .doUpdateSet((eb) => ({
          level: eb.ref('excluded.level'),
          rank: eb.ref('excluded.rank'),
          passed: eb.ref('excluded.passed'),
          total: eb.ref('excluded.total'),
          rules: eb.ref('excluded.rules'),
          evaluated_at: eb.ref('excluded.evaluated_at'),
          version: eb.ref('excluded.version'),
        }))
        // Never an older evaluation over a newer one: a newer version of the scorecard, or the
        // same version read no earlier.
        .where(
          sql<boolean>`scorecard_results.version < excluded.version
            or (scorecard_results.version = excluded.version
              and scorecard_results.evaluated_at <= excluded.evaluated_at)`,
        ),
    )
    .executeTakeFirst();
}

/**
 * Writes results, RESULT_CHUNK a statement, each for its scorecard and service: only where the
 * service still exists and the scorecard is still at the version evaluated (a service or a
 * scorecard removed or changed meanwhile is skipped, not an error), and never over a newer
 * result. Returns how many were written.
 */
export async function storeResults(db: CatalogDb, rows: readonly NewResult[]) {
  const sorted = [...rows].sort(
    (a, b) =>
      a.scorecard_id.localeCompare(b.scorecard_id) || a.service_id.localeCompare(b.service_id),
  );
  let written = 0;
  for (let i = 0; i < sorted.length; i += RESULT_CHUNK) {
    const chunk = sorted.slice(i, i + RESULT_CHUNK);
    // A service removed between the join and the key check: once more, without it.
    const result = await storeChunk(db, chunk).catch((error: unknown) => {
      if (isForeignKeyViolation(error)) return storeChunk(db, chunk);
      throw error;
    });
    written += Number(result?.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}

/** Marks these services changed, when there is a scorecard to evaluate them on (key order). */
export async function markChanged(db: CatalogDb, ids: readonly string[]) {
  const unique = [...new Set(ids)];
  let marked = 0;
  for (let i = 0; i < unique.length; i += RESULT_CHUNK) {
    const some = unique.slice(i, i + RESULT_CHUNK);
    marked += await markWhere(db, (q) => q.where('s.id', 'in', some));
  }
  return marked;
}

/** Marks the services of an owner or a system changed (its name is in their results). */
export const markChangedOf = (db: CatalogDb, column: 'owner_id' | 'system_id', id: string) =>
  markWhere(db, (q) => q.where(`s.${column}`, '=', id));

type ServiceQuery = ReturnType<typeof servicesQuery>;
const servicesQuery = (db: CatalogDb) => db.selectFrom('services as s').select('s.id');

/** Marks the services `where` selects; returns how many (none while there is no scorecard). */
async function markWhere(db: CatalogDb, where: (q: ServiceQuery) => ServiceQuery) {
  const result = await db
    .insertInto('scorecard_pending')
    .columns(['service_id'])
    .expression(
      where(servicesQuery(db))
        .where(({ exists, selectFrom }) => exists(selectFrom('scorecards').select('id')))
        .orderBy('s.id'),
    )
    .onConflict((oc) =>
      oc.column('service_id').doUpdateSet({
        since: sql`now()`,
        changes: sql`scorecard_pending.changes + 1`,
      }),
    )
    .executeTakeFirst();
  return Number(result?.numInsertedOrUpdatedRows ?? 0);
}

/** The first `limit` services marked changed, by id. */
export const pendingPage = (db: CatalogDb, limit: number) =>
  db
    .selectFrom('scorecard_pending')
    .select(['service_id', 'changes'])
    .orderBy('service_id')
    .limit(limit)
    .execute();

/** Unmarks services evaluated, unless marked again since they were read (`changes` moved on). */
export async function clearPending(
  db: CatalogDb,
  rows: ReadonlyArray<{ service_id: string; changes: number }>,
) {
  if (rows.length === 0) return;
  await db
    .deleteFrom('scorecard_pending')
    .where((eb) =>
      eb.or(
        rows.map((r) =>
          eb.and([eb('service_id', '=', r.service_id), eb('changes', '=', r.changes)]),
        ),
      ),
    )
    .execute();
}

/** Forgets every mark made before `before` (an evaluation of everything covered them). */
export const clearPendingBefore = (db: CatalogDb, before: Date) =>
  db.deleteFrom('scorecard_pending').where('since', '<', before).execute();

/** Whether a job of this kind waits to start (it will read what is marked when it does). */
export async function jobWaiting(db: CatalogDb, kind: string) {
  const jobs = db as unknown as Kysely<{ jobs: { id: string; kind: string; status: string } }>;
  const row = await jobs
    .selectFrom('jobs')
    .select('id')
    .where('kind', '=', kind)
    .where('status', '=', 'queued')
    .limit(1)
    .executeTakeFirst();
  return !!row;
}
