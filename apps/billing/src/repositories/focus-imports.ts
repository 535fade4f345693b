import { jsonb, sql } from '@platform/db';
import type {
  BillingDb,
  FocusRowsTable,
  NewFocusRow,
  SkippedRow,
  SyncJobRow,
} from '../database.js';
import { FOCUS_OVERWRITES, overwriteWithExcluded } from './items.js';
import { finishSyncJob } from './sync-jobs.js';

// A FOCUS sync's way through the database: the rows read from the file (focus_rows) and the
// skipped ones (focus_skipped), then one fenced transaction that sums and upserts the rows into
// items and removes the items of earlier imports that the file no longer has.

/** What a FOCUS sync has read so far, as its sync job shows it. */
export interface ImportProgress {
  read: number;
  written: number;
  skipped: number;
  /** The first skipped rows (a preview), in file order. */
  skippedRows: SkippedRow[];
}

/** Forgets what a previous run of this sync read (a run always starts from the top). */
export async function clearStagedRows(db: BillingDb, syncJobId: string) {
  await db.deleteFrom('focus_rows').where('sync_job_id', '=', syncJobId).execute();
  await db.deleteFrom('focus_skipped').where('sync_job_id', '=', syncJobId).execute();
}

/** The staged columns and their SQL types. */
const STAGED: Record<keyof FocusRowsTable, string> = {
  sync_job_id: 'text',
  row: 'integer',
  id: 'text',
  provider: 'text',
  provider_ref: 'text',
  name: 'text',
  exact_amount: 'numeric',
  currency: 'text',
  date: 'timestamptz',
  description: 'text',
  category: 'text',
  service: 'text',
  recurring: 'boolean',
  period: 'text',
  tags: 'jsonb',
  dimensions: 'jsonb',
};
const STAGED_COLUMNS = Object.keys(STAGED) as Array<keyof FocusRowsTable>;

/**
 * Stores a batch of rows and skipped rows. The rows travel as one JSON parameter, not 16
 * parameters a row: PGlite binds parameters one by one, and this shape stages a third more rows
 * a second there (PostgreSQL takes either alike).
 */
export async function stageRows(
  db: BillingDb,
  syncJobId: string,
  rows: NewFocusRow[],
  skipped: SkippedRow[],
) {
  if (rows.length > 0) {
    const values = db
      .selectFrom(sql`jsonb_array_elements(${JSON.stringify(rows)}::jsonb)`.as('r'))
      .select(
        STAGED_COLUMNS.map((column) =>
          STAGED[column] === 'jsonb'
            ? sql`value -> ${sql.lit(column)}`.as(column)
            : sql`(value ->> ${sql.lit(column)})::${sql.raw(STAGED[column])}`.as(column),
        ),
      );
    await db.insertInto('focus_rows').columns(STAGED_COLUMNS).expression(values).execute();
  }
  if (skipped.length > 0)
    await db
      .insertInto('focus_skipped')
      .values(skipped.map((s) => ({ ...s, sync_job_id: syncJobId })))
      .execute();
}

const progressColumns = (progress: ImportProgress) => ({
  rows_read: progress.read,
  rows_written: progress.written,
  rows_skipped: progress.skipped,
  skipped: jsonb(progress.skippedRows),
});

export async function reportProgress(db: BillingDb, syncJobId: string, progress: ImportProgress) {
  await db
    .updateTable('sync_jobs')
    .set(progressColumns(progress))
    .where('id', '=', syncJobId)
    .where('status', '=', 'running')
    .execute();
}

/**
 * An upload's last progress, and staged_at: every row is staged, the upload is accepted. Undefined
 * when the sync job is no longer running (it failed meanwhile).
 */
export function markStaged(
  db: BillingDb,
  syncJobId: string,
  progress: ImportProgress,
): Promise<SyncJobRow | undefined> {
  return db
    .updateTable('sync_jobs')
    .set({ ...progressColumns(progress), staged_at: sql<Date>`now()` })
    .where('id', '=', syncJobId)
    .where('status', '=', 'running')
    .returningAll()
    .executeTakeFirst();
}

/** A page of a sync job's skipped rows, in file order. */
export function listSkippedRows(
  db: BillingDb,
  syncJobId: string,
  page: { limit: number; offset: number },
) {
  return db
    .selectFrom('focus_skipped')
    .select(['row', 'reason'])
    .where('sync_job_id', '=', syncJobId)
    .orderBy('row')
    .orderBy('reason')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** An item's columns as its charge's first row (in file order) has them; amounts are summed. */
const COPIED = [
  'id',
  'name',
  'currency',
  'provider',
  'provider_ref',
  'tags',
  'description',
  'recurring',
  'period',
  'date',
  'category',
  'service',
  'dimensions',
] as const;

/**
 * Sums the staged rows of each (provider, providerRef) whose reference starts with `slice` (a
 * hex digit) and upserts them into items: new ones made with source focus, by `createdBy` (who
 * started the import, or null); known ones get the amounts, name, description, date, recurrence
 * and dimensions, and keep their tags, category, service, creator and team.
 */
function upsertCharges(trx: BillingDb, syncJobId: string, slice: string, createdBy: string | null) {
  const exactSum = sql<string>`sum(exact_amount) over (partition by provider, provider_ref)`;
  const charges = trx
    .selectFrom('focus_rows')
    .distinctOn(['provider', 'provider_ref'])
    .select([
      ...COPIED,
      sql<string>`round(${exactSum})`.as('amount'),
      exactSum.as('exact_amount'),
      sql<string>`'focus'`.as('source'),
      sql<string | null>`${createdBy}::text`.as('created_by'),
    ])
    .where('sync_job_id', '=', syncJobId)
    .where(sql<string>`left(provider_ref, 1)`, '=', slice)
    .orderBy('provider')
    .orderBy('provider_ref')
    .orderBy('row');
  return trx
    .with('upserted', (qb) =>
      qb
        .insertInto('items')
        .columns([...COPIED, 'amount', 'exact_amount', 'source', 'created_by'])
        .expression(charges)
        .onConflict((oc) =>
          oc
            .columns(['provider', 'provider_ref'])
            .where('provider_ref', 'is not', null)
            .doUpdateSet(overwriteWithExcluded(FOCUS_OVERWRITES)),
        )
        .returning(sql<boolean>`xmax = 0`.as('inserted')),
    )
    .selectFrom('upserted')
    .select([
      sql<number>`count(*) filter (where inserted)::int`.as('created'),
      sql<number>`count(*) filter (where not inserted)::int`.as('updated'),
    ])
    .executeTakeFirstOrThrow();
}

/**
 * In one transaction, first fenced (`fence` locks the durable job and throws when this run no
 * longer holds it): upserts the staged charges into items (upsertCharges); removes the items that
 * earlier FOCUS imports made in the window for the providers of this file and that the file no
 * longer has; completes the sync job with the counts; drops the staged rows. New items are made
 * by the job's creator (`createdBy`).
 */
export function mergeStagedRows(
  db: BillingDb,
  job: { id: string; createdBy: string | null },
  window: { from: Date; to: Date },
  fence: (trx: BillingDb) => Promise<void>,
) {
  const syncJobId = job.id;
  return db.transaction().execute(async (trx) => {
    await fence(trx);
    const counts = { created: 0, updated: 0 };
    // A sixteenth of the charges at a time (references are hex), with a turn of the event loop
    // between: PGlite runs one statement at a time (in a worker thread by default, in the test's
    // own thread in tests), and one statement over a 200 MB file kept it from answering anything,
    // health checks included, for a minute.
    for (const slice of '0123456789abcdef') {
      const done = await upsertCharges(trx, syncJobId, slice, job.createdBy);
      counts.created += done.created;
      counts.updated += done.updated;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const deleted = await deleteReplacedItems(trx, syncJobId, window);
    const outcome = {
      items_created: counts.created,
      items_updated: counts.updated,
      items_deleted: deleted,
    };
    await finishSyncJob(trx, syncJobId, { status: 'completed', ...outcome });
    await discardImport(trx, syncJobId);
    return outcome;
  });
}

/**
 * The file is the truth for its window: items made by FOCUS imports (source focus), dated in the
 * window, of a provider the file has rows of (or of `focus`, the provider of files without
 * ProviderName and of imports older than dimensions), that no staged row of this file matches.
 */
async function deleteReplacedItems(
  trx: BillingDb,
  syncJobId: string,
  window: { from: Date; to: Date },
) {
  const staged = trx.selectFrom('focus_rows').where('sync_job_id', '=', syncJobId);
  const providers = await staged.select('provider').distinct().execute();
  if (providers.length === 0) return 0;
  const covered = [...new Set(['focus', ...providers.map((p) => p.provider)])];
  const { numDeletedRows } = await trx
    .deleteFrom('items')
    .where('source', '=', 'focus')
    .where('provider', 'in', covered)
    .where('date', '>=', window.from)
    .where('date', '<=', window.to)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('focus_rows')
            .select('row')
            .where('focus_rows.sync_job_id', '=', syncJobId)
            .whereRef('focus_rows.provider', '=', 'items.provider')
            .whereRef('focus_rows.provider_ref', '=', 'items.provider_ref'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(numDeletedRows);
}

/** Drops the rows a FOCUS sync staged (its skipped rows stay: they are the job's record). */
export async function discardImport(db: BillingDb, syncJobId: string) {
  await db.deleteFrom('focus_rows').where('sync_job_id', '=', syncJobId).execute();
}

/** Fails a FOCUS sync and drops what it staged, in one transaction. */
export function failImport(db: BillingDb, syncJobId: string, error: string) {
  return db.transaction().execute(async (trx) => {
    await finishSyncJob(trx, syncJobId, { status: 'failed', error });
    await discardImport(trx, syncJobId);
  });
}
