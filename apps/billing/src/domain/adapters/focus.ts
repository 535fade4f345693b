import { StringDecoder } from 'node:string_decoder';
import { newId } from '@platform/core';
import type { BillingDb, SkippedRow } from '../../database.js';
import {
  recordHeader,
  reportProgress,
  type ImportProgress,
} from '../../repositories/focus-imports.js';
import { StagedRows, stageRows } from '../../repositories/focus-staging.js';
import { ProviderError, type Adapter } from './adapter.js';
import { CsvReader, type CsvItem } from './focus-csv.js';
import { REQUIRED_COLUMNS } from './focus-columns.js';
import { focusReader, type FocusWindow } from './focus-row.js';

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
/** Batches written at once while the next is read. */
const WRITING = 2;
/** Skipped rows the sync job lists as a preview; focus_skipped keeps them all. */
export const MAX_SKIPPED_LISTED = 100;
/** The longest row (a quoted value may span lines): longer, the file does not parse. */
const MAX_ROW_CHARS = 16 * 2 ** 20;

/** A batch read, to be written: its rows (COPY text), its skipped rows, the progress after it. */
interface Batch {
  rows: StagedRows;
  skipped: SkippedRow[];
  progress: ImportProgress;
}

/**
 * Reads a FOCUS CSV as it streams from `source` and stages it: each row in `window` goes to
 * focus_rows (by COPY), each other one to focus_skipped with its line and reason, a batch at a
 * time, with the progress written to the sync job after each batch. While a batch is written the
 * next one is read (the database and this thread work at once); memory holds those two: the next
 * piece of `source` is not read before the batch before is written (backpressure reaches the
 * sender). The progress a job shows counts rows that are staged. A file that is not a FOCUS CSV
 * throws a ProviderError. Whatever goes wrong, no write is under way when it throws.
 */
export async function stageFocus(
  db: BillingDb,
  syncJobId: string,
  source: AsyncIterable<Buffer | string> | Iterable<string>,
  window: FocusWindow,
  signal?: AbortSignal,
): Promise<ImportProgress> {
  const progress: ImportProgress = { read: 0, written: 0, skipped: 0, skippedRows: [] };
  // Rows are read into one set while up to WRITING others are written; each comes back when its
  // write has ended.
  let rows = new StagedRows();
  const free = Array.from({ length: WRITING }, () => new StagedRows());
  let skipped: SkippedRow[] = [];
  const skip = (row: number, reason: string) => {
    progress.skipped += 1;
    skipped.push({ row, reason });
    if (progress.skippedRows.length < MAX_SKIPPED_LISTED) {
      progress.skippedRows.push({ row, reason });
      progress.skippedRows.sort((a, b) => a.row - b.row);
    }
  };
  let header: string[] | undefined;
  let read: ReturnType<typeof focusReader> | undefined;
  // Item ids, 100 at a time: one call to the CSPRNG instead of one a row (a fifth of the time a
  // row took); its characters are independent, so each 12 of them are an id like newId(12).
  let ids = '';
  const nextId = () => {
    if (ids.length === 0) ids = newId(12 * 100);
    const id = ids.slice(0, 12);
    ids = ids.slice(12);
    return id;
  };

  // The batches being written, in order. Each COPY starts at once (on PostgreSQL, each on a
  // connection of its own); its progress is written once the batch before has been, so that the
  // job never counts rows that are not staged. A failed write is thrown at the next flush or the
  // end, once no write is under way.
  const writing: Array<Promise<void>> = [];
  let last: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  const write = async (batch: Batch, before: Promise<void>) => {
    try {
      await stageRows(db, syncJobId, batch.rows, batch.skipped);
      await before;
      if (failure) return;
      await reportProgress(db, syncJobId, batch.progress);
      // PGlite in the test's own thread answers through promises alone: without a turn of the
      // event loop, requests (a client reading this progress) would wait for the whole file.
      await new Promise((resolve) => setImmediate(resolve));
    } catch (error) {
      failure ??= { error };
    } finally {
      free.push(batch.rows.clear());
    }
  };
  const flush = async () => {
    const batch = {
      rows,
      skipped,
      progress: { ...progress, skippedRows: [...progress.skippedRows] },
    };
    skipped = [];
    while (writing.length >= WRITING) await writing.shift();
    if (failure) throw failure.error;
    rows = free.pop()!;
    last = write(batch, last);
    writing.push(last);
  };
  const settle = async () => {
    await Promise.all(writing.splice(0));
    if (failure) throw failure.error;
  };

  const take = async (items: CsvItem[]) => {
    for (const item of items) {
      if (!header) {
        if ('problem' in item)
          throw new ProviderError(`The FOCUS CSV does not parse: ${item.problem}`);
        header = item.cells;
        for (const column of REQUIRED_COLUMNS)
          if (!header.includes(column))
            throw new ProviderError(`The FOCUS CSV has no ${column} column`);
        read = focusReader(header, window);
        await recordHeader(db, syncJobId, header);
        continue;
      }
      progress.read += 1;
      if ('problem' in item) skip(item.line, item.problem);
      else if (item.cells.length !== header.length)
        skip(
          item.line,
          `Invalid Record Length: expect ${header.length}, got ${item.cells.length} on line ${item.line}`,
        );
      else {
        const outcome = read!(item.cells);
        if ('skip' in outcome) skip(item.line, outcome.skip);
        else {
          progress.written += 1;
          rows.add(syncJobId, item.line, nextId(), outcome.charge);
        }
      }
      if (rows.count + skipped.length >= BATCH) {
        if (signal?.aborted) throw new Error('The sync was stopped');
        await flush();
      }
    }
  };

  const csv = new CsvReader();
  const decoder = new StringDecoder('utf8');
  try {
    for await (const piece of source) {
      const text = typeof piece === 'string' ? piece : decoder.write(piece);
      // NUL is no character PostgreSQL stores: dropped.
      await take(csv.push(text.includes('\0') ? text.replace(/\0/g, '') : text));
      if (csv.pending > MAX_ROW_CHARS)
        throw new ProviderError(
          `The FOCUS CSV does not parse: a row is longer than ${MAX_ROW_CHARS} characters (a quote left open?)`,
        );
    }
    await take(csv.push(decoder.end()));
    await take(csv.end());
    if (!header) throw new ProviderError('The FOCUS CSV is empty: it has no header line');
    await flush();
    await settle();
  } catch (error) {
    await Promise.all(writing); // no write is under way once this throws: the caller drops them
    throw error;
  }
  return progress;
}
