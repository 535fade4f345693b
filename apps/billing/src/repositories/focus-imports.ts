import { jsonb, sql } from '@platform/db';
import type { BillingDb, SkippedRow, SyncJobRow } from '../database.js';
import { FOCUS_OVERWRITES, overwriteWithExcluded } from './items.js';
import { finishSyncJob } from './sync-jobs.js';
import { resolveItems } from './owners-resolve.js';

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

const progressColumns = (progress: ImportProgress) => ({
  rows_read: progress.read,
  rows_written: progress.written,
  rows_skipped: progress.skipped,
  skipped: jsonb(progress.skippedRows),
});

/** The header of the file a FOCUS sync reads (the staged dimensions name columns by place). */
export async function recordHeader(db: BillingDb, syncJobId: string, header: string[]) {
  await db
    .updateTable('sync_jobs')
    .set({ focus_header: jsonb(header) })
    .where('id', '=', syncJobId)
    .execute();
}

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
  'currency',
  'provider',
  'provider_ref',
  'recurring',
  'period',
  'category',
  'service',
] as const;
/** The item's columns made here of the staged text (see FocusRowsTable). */
const MADE = ['name', 'description', 'tags', 'date', 'dimensions'] as const;

/**
 * The item's dimensions of a staged row: its columns' names put back (`header`: the file's;
 * null for rows staged before 2026-12-23, whose dimensions hold names), and ChargeDescription.
 */
function dimensionsOf(header: string[] | null) {
  if (!header) return sql`c.dimensions::jsonb`;
  const named = sql`coalesce((select jsonb_object_agg(${JSON.stringify(header)}::jsonb ->> (d.key::int), d.value) from jsonb_each(c.dimensions::jsonb) d), '{}'::jsonb)`;
  return sql`case when c.description is null then ${named} else ${named} || jsonb_build_object('ChargeDescription', c.description) end`;
}

/**
 * Sums the staged rows of each (provider, providerRef) whose reference starts with `slice` (a
 * hex digit) and upserts them into items: new ones made with source focus, by `createdBy` (who
 * started the import, or null); known ones get the amounts, name, description, date, recurrence
 * and dimensions, and keep their tags, category, service, creator and team.
 */
function upsertCharges(
  trx: BillingDb,
  job: { id: string; createdBy: string | null; header: string[] | null },
  slice: string,
) {
  const exactSum = sql<string>`sum(exact_amount::numeric) over (partition by provider, provider_ref)`;
  // Each charge's first row (the sum of its rows beside it), then its item's columns of it.
  const first = trx
    .selectFrom('focus_rows')
    .distinctOn(['provider', 'provider_ref'])
    .select([...COPIED, 'name', 'description', 'tags', 'date', 'dimensions'])
    .select(exactSum.as('exact_amount'))
    .where('sync_job_id', '=', job.id)
    .where(sql<string>`left(provider_ref, 1)`, '=', slice)
    .orderBy('provider')
    .orderBy('provider_ref')
    .orderBy('row');
  const charges = trx
    .selectFrom(first.as('c'))
    .select([
      ...COPIED,
      sql<string>`coalesce(c.name, left(coalesce(c.service, left(c.description, 200), 'FOCUS charge'), 200))`.as(
        'name',
      ),
      sql<string | null>`left(c.description, 2000)`.as('description'),
      sql`c.tags::jsonb`.as('tags'),
      sql`c.date::timestamptz`.as('date'),
      dimensionsOf(job.header).as('dimensions'),
      sql<string>`round(c.exact_amount)`.as('amount'),
      'exact_amount',
      sql<string>`'focus'`.as('source'),
      sql<string | null>`${job.createdBy}::text`.as('created_by'),
    ]);
  return trx
    .with('upserted', (qb) =>
      qb
        .insertInto('items')
        .columns([...COPIED, ...MADE, 'amount', 'exact_amount', 'source', 'created_by'])
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
    const { focus_header: header } = await trx
      .selectFrom('sync_jobs')
      .select('focus_header')
      .where('id', '=', syncJobId)
      .executeTakeFirstOrThrow();
    const counts = { created: 0, updated: 0 };
    // A sixteenth of the charges at a time (references are hex), with a turn of the event loop
    // between: PGlite runs one statement at a time (in a worker thread by default, in the test's
    // own thread in tests), and one statement over a 200 MB file kept it from answering anything,
    // health checks included, for a minute.
    for (const slice of '0123456789abcdef') {
      const done = await upsertCharges(trx, { ...job, header }, slice);
      counts.created += done.created;
      counts.updated += done.updated;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const deleted = await deleteReplacedItems(trx, syncJobId, window);
    await resolveItems(trx, window); // to catalog services (issue 39, repositories/owners-resolve.ts)
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
 * Run it after upsertCharges, in its transaction.
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
    // Matched: upserted by this transaction (every charge of the file was, just before), so the
    // row's version is this transaction's. No comparison with the staged rows: it was a join of
    // every item with every staged row when the planner misjudged either side.
    .where(sql<boolean>`xmin <> pg_current_xact_id()::xid`)
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
