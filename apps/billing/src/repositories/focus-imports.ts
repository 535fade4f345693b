import { jsonb, sql } from '@platform/db';
import type { BillingDb, NewFocusRow, SkippedRow } from '../database.js';
import { finishSyncJob } from './sync-jobs.js';

// A FOCUS sync's way through the database: the uploaded bytes (focus_uploads), the rows read
// from them (focus_rows), then one statement that sums and upserts them into items.

/** What a FOCUS sync has read so far, as its sync job shows it. */
export interface ImportProgress {
  read: number;
  written: number;
  skipped: number;
  /** The first skipped rows (bounded), in file order. */
  skippedRows: SkippedRow[];
}

export async function storeUploadChunk(db: BillingDb, uploadId: string, seq: number, data: Buffer) {
  await db.insertInto('focus_uploads').values({ upload_id: uploadId, seq, data }).execute();
}

/** The upload's bytes, one chunk at a time, in order (memory holds one chunk). */
export async function* readUpload(db: BillingDb, uploadId: string): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const chunk = await db
      .selectFrom('focus_uploads')
      .select('data')
      .where('upload_id', '=', uploadId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    if (!chunk) return;
    yield Buffer.from(chunk.data);
  }
}

/**
 * Removes an upload's bytes; also those of uploads older than a day that no sync job took (a
 * process that died while receiving one).
 */
export async function deleteUpload(db: BillingDb, uploadId: string) {
  await db.deleteFrom('focus_uploads').where('upload_id', '=', uploadId).execute();
  await db
    .deleteFrom('focus_uploads')
    .where('created_at', '<', sql<Date>`now() - interval '1 day'`)
    .where('upload_id', 'not in', (eb) => eb.selectFrom('sync_jobs').select('id'))
    .execute();
}

/** Forgets the rows a previous run of this sync read (a run always starts from the top). */
export async function clearStagedRows(db: BillingDb, syncJobId: string) {
  await db.deleteFrom('focus_rows').where('sync_job_id', '=', syncJobId).execute();
}

export async function stageRows(db: BillingDb, rows: NewFocusRow[]) {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({ ...r, tags: jsonb(r.tags), dimensions: jsonb(r.dimensions) }));
  await db.insertInto('focus_rows').values(values).execute();
}

export async function reportProgress(db: BillingDb, syncJobId: string, progress: ImportProgress) {
  await db
    .updateTable('sync_jobs')
    .set(progressColumns(progress))
    .where('id', '=', syncJobId)
    .where('status', '=', 'running')
    .execute();
}

const progressColumns = (progress: ImportProgress) => ({
  rows_read: progress.read,
  rows_written: progress.written,
  rows_skipped: progress.skipped,
  skipped: jsonb(progress.skippedRows),
});

/**
 * In one transaction: sums the staged rows of each (provider, providerRef), upserts them into
 * items (new ones tagged as read; known ones get the new amount, name, description, date,
 * recurrence and dimensions, and keep their tags, category and service), completes the sync job
 * with the counts and progress, and drops the staged rows and the upload.
 */
export function mergeStagedRows(db: BillingDb, syncJobId: string, progress: ImportProgress) {
  return db.transaction().execute(async (trx) => {
    const charges = trx
      .selectFrom('focus_rows')
      .distinctOn(['provider', 'provider_ref'])
      .select([
        'id',
        'name',
        sql<string>`round(sum(exact_amount) over (partition by provider, provider_ref))`.as(
          'amount',
        ),
        sql<string>`sum(exact_amount) over (partition by provider, provider_ref)`.as(
          'exact_amount',
        ),
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
      ])
      .where('sync_job_id', '=', syncJobId)
      .orderBy('provider')
      .orderBy('provider_ref')
      .orderBy('row');
    const counts = await trx
      .with('upserted', (qb) =>
        qb
          .insertInto('items')
          .columns([
            'id',
            'name',
            'amount',
            'exact_amount',
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
          ])
          .expression(charges)
          .onConflict((oc) =>
            oc
              .columns(['provider', 'provider_ref'])
              .where('provider_ref', 'is not', null)
              .doUpdateSet((eb) => ({
                name: eb.ref('excluded.name'),
                amount: eb.ref('excluded.amount'),
                exact_amount: eb.ref('excluded.exact_amount'),
                currency: eb.ref('excluded.currency'),
                description: eb.ref('excluded.description'),
                date: eb.ref('excluded.date'),
                recurring: eb.ref('excluded.recurring'),
                period: eb.ref('excluded.period'),
                dimensions: eb.ref('excluded.dimensions'),
                updated_at: sql`now()`,
              })),
          )
          .returning(sql<boolean>`xmax = 0`.as('inserted')),
      )
      .selectFrom('upserted')
      .select([
        sql<number>`count(*) filter (where inserted)::int`.as('created'),
        sql<number>`count(*) filter (where not inserted)::int`.as('updated'),
      ])
      .executeTakeFirstOrThrow();
    const outcome = { items_created: counts.created, items_updated: counts.updated };
    const done = { status: 'completed' as const, ...outcome, ...progressColumns(progress) };
    await finishSyncJob(trx, syncJobId, done);
    await discardImport(trx, syncJobId);
    return outcome;
  });
}

/** Drops what a finished (or failed) FOCUS sync kept while it ran. */
export async function discardImport(db: BillingDb, syncJobId: string) {
  await clearStagedRows(db, syncJobId);
  await deleteUpload(db, syncJobId);
}
