import { Readable } from 'node:stream';
import { newId } from '@platform/core';
import { parse } from 'csv-parse';
import type { BillingDb, NewFocusRow, SkippedRow } from '../../database.js';
import {
  reportProgress,
  stageRows,
  type ImportProgress,
} from '../../repositories/focus-imports.js';
import { ProviderError, type Adapter } from './adapter.js';
import { readFocusRow, REQUIRED_COLUMNS } from './focus-row.js';

/** A FOCUS (FinOps Open Cost and Usage Specification) CSV export, posted or uploaded. */
export const focusAdapter: Adapter = {
  name: 'focus',
  description:
    'A FOCUS 1.x CSV: sent as `csv` in POST /sync, or uploaded as a text/csv body to POST /sync/focus (BilledCost, BillingCurrency, ChargePeriodStart, ...)',
  needsToken: false,
  baseUrl: null,
};

/** Rows read between two writes to the database (staged rows, skipped rows, progress). */
const BATCH = 2000;
/** Skipped rows the sync job lists as a preview; focus_skipped keeps them all. */
export const MAX_SKIPPED_LISTED = 100;

const csvError = (error: unknown) =>
  typeof (error as { code?: unknown }).code === 'string' &&
  (error as { code: string }).code.startsWith('CSV_');

/**
 * Reads a FOCUS CSV as it streams from `source` and stages it: each row in `window` goes to
 * focus_rows, each other one to focus_skipped with its line and reason, a batch at a time, with
 * the progress written to the sync job after each batch. Memory holds one batch: the next piece
 * of `source` is not read while a batch is written (backpressure reaches the sender). A file that
 * is not a FOCUS CSV throws a ProviderError.
 */
export async function stageFocus(
  db: BillingDb,
  syncJobId: string,
  source: AsyncIterable<Buffer | string> | Iterable<string>,
  window: { from: Date; to: Date },
  signal?: AbortSignal,
): Promise<ImportProgress> {
  const progress: ImportProgress = { read: 0, written: 0, skipped: 0, skippedRows: [] };
  let batch: NewFocusRow[] = [];
  let skipped: SkippedRow[] = [];
  const skip = (row: number, reason: string) => {
    progress.skipped += 1;
    skipped.push({ row, reason });
    if (progress.skippedRows.length < MAX_SKIPPED_LISTED)
      progress.skippedRows.push({ row, reason });
  };
  const parser = parse({
    bom: true,
    trim: true,
    skip_empty_lines: true,
    info: true,
    skip_records_with_error: true,
    on_skip: (error: { lines?: number; message: string } | undefined) => {
      progress.read += 1;
      skip(error?.lines ?? 0, error?.message ?? 'unreadable');
    },
  });
  const input = Readable.from(source);
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let header: string[] | undefined;
  // Item ids, 100 at a time: one call to the CSPRNG instead of one a row (a fifth of the time a
  // row took); its characters are independent, so each 12 of them are an id like newId(12).
  let ids = newId(12 * 100);
  const flush = async () => {
    await stageRows(db, syncJobId, batch, skipped);
    batch = [];
    skipped = [];
    progress.skippedRows.sort((a, b) => a.row - b.row);
    await reportProgress(db, syncJobId, progress);
    // PGlite in the test's own thread answers through promises alone: without a turn of the event
    // loop, requests (a client reading this progress) would wait for the whole file.
    await new Promise((resolve) => setImmediate(resolve));
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      if (!header) {
        header = record;
        for (const column of REQUIRED_COLUMNS)
          if (!header.includes(column))
            throw new ProviderError(`The FOCUS CSV has no ${column} column`);
        continue;
      }
      progress.read += 1;
      const cells = Object.fromEntries(header.map((column, i) => [column, record[i] ?? '']));
      const outcome = readFocusRow(cells, window);
      if ('skip' in outcome) skip(info.lines, outcome.skip);
      else {
        progress.written += 1;
        const id = ids.slice(0, 12);
        ids = ids.length > 12 ? ids.slice(12) : newId(12 * 100);
        batch.push({ ...outcome.charge, sync_job_id: syncJobId, row: info.lines, id });
      }
      if (batch.length + skipped.length >= BATCH) {
        if (signal?.aborted) throw new Error('The sync was stopped');
        await flush();
      }
    }
  } catch (error) {
    if (csvError(error))
      throw new ProviderError(`The FOCUS CSV does not parse: ${(error as Error).message}`);
    throw error;
  } finally {
    input.destroy();
  }
  if (!header) throw new ProviderError('The FOCUS CSV is empty: it has no header line');
  await flush();
  return progress;
}
