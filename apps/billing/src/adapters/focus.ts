import { Readable } from 'node:stream';
import { newId } from '@platform/core';
import { parse } from 'csv-parse';
import type { BillingDb, NewFocusRow } from '../database.js';
import {
  clearStagedRows,
  mergeStagedRows,
  reportProgress,
  stageRows,
  type ImportProgress,
} from '../repositories/focus-imports.js';
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

/** Rows written to the database (and progress reported) at a time. */
const BATCH = 1000;
/** Skipped rows listed in the job; the count goes on. */
export const MAX_SKIPPED_LISTED = 100;

const csvError = (error: unknown) =>
  typeof (error as { code?: unknown }).code === 'string' &&
  (error as { code: string }).code.startsWith('CSV_');

/**
 * Reads a FOCUS CSV as it streams from `source` (memory holds a chunk and a batch of rows): each
 * row in `window` is staged, each other one skipped with its line and reason; progress is written
 * to the sync job after every batch. Then the staged rows are summed per charge and upserted into
 * items with the sync job completed, in one transaction. A run starts from the top, so a second
 * run after a crash does the same work again and stores the same result.
 */
export async function importFocus(
  db: BillingDb,
  syncJobId: string,
  source: AsyncIterable<Buffer | string> | Iterable<string>,
  window: { from: Date; to: Date },
  signal?: AbortSignal,
) {
  await clearStagedRows(db, syncJobId);
  const progress: ImportProgress = { read: 0, written: 0, skipped: 0, skippedRows: [] };
  const skip = (row: number, reason: string) => {
    progress.skipped += 1;
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
  let batch: NewFocusRow[] = [];
  const flush = async () => {
    await stageRows(db, batch);
    batch = [];
    progress.skippedRows.sort((a, b) => a.row - b.row);
    await reportProgress(db, syncJobId, progress);
    // PGlite answers in this thread through promises alone: without a turn of the event loop,
    // requests (a client reading this progress) would wait for the whole file.
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
        batch.push({ ...outcome.charge, sync_job_id: syncJobId, row: info.lines, id: newId(12) });
      }
      if (batch.length >= BATCH || (progress.read % BATCH === 0 && progress.read > 0)) {
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
  await flush();
  return mergeStagedRows(db, syncJobId, progress);
}
