import { copyInto, copyRow } from '@platform/db';
import type { StagedCharge } from '../domain/adapters/focus-row.js';
import type { BillingDb, FocusRowsTable, SkippedRow } from '../database.js';

// Staging a FOCUS sync's rows: focus_rows by COPY (libs/db copy.ts), skipped rows beside them.

/** The staged columns, in the order of a COPY row. */
const STAGED_COLUMNS = [
  'sync_job_id',
  'row',
  'id',
  'provider',
  'provider_ref',
  'name',
  'exact_amount',
  'currency',
  'date',
  'description',
  'category',
  'service',
  'recurring',
  'period',
  'tags',
  'dimensions',
] as const satisfies ReadonlyArray<keyof FocusRowsTable>;

/** A charge read from line `row` of the file, as a row of COPY text into focus_rows. */
export function stagedRow(syncJobId: string, row: number, id: string, c: StagedCharge): string {
  return copyRow([
    syncJobId,
    row,
    id,
    c.provider,
    c.provider_ref,
    c.name,
    c.exact_amount,
    c.currency,
    c.date,
    c.description,
    c.category,
    c.service,
    c.recurring,
    c.period,
    c.tags,
    c.dimensions,
  ]);
}

/**
 * A batch's staged rows as COPY text, gathered as bytes: no string of the whole batch to join, and
 * the same memory for every batch (a join of 2,000 rows and its garbage were a tenth of the time).
 */
export class StagedRows {
  #buffer = Buffer.allocUnsafe(2 ** 22);
  #length = 0;
  count = 0;

  add(syncJobId: string, row: number, id: string, charge: StagedCharge) {
    const line = stagedRow(syncJobId, row, id, charge);
    if (this.#length + line.length * 3 > this.#buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, line.length * 3));
      this.#buffer.copy(larger, 0, 0, this.#length);
      this.#buffer = larger;
    }
    this.#length += this.#buffer.write(line, this.#length);
    this.count += 1;
  }

  get bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }

  clear() {
    this.#length = 0;
    this.count = 0;
    return this;
  }
}

/** focus_rows as COPY names it: its schema's (the service's) qualified name. */
const stagedTable = (db: BillingDb) => {
  const { sql: text } = db.selectFrom('focus_rows').selectAll().compile();
  return /from (.+)$/.exec(text)![1];
};

/**
 * Stores a batch of rows and skipped rows. The rows go in by COPY: a tenth of the time an INSERT
 * of them took, on either database.
 */
export async function stageRows(
  db: BillingDb,
  syncJobId: string,
  rows: StagedRows,
  skipped: SkippedRow[],
) {
  if (rows.count > 0)
    await copyInto(db, { table: stagedTable(db), columns: STAGED_COLUMNS }, rows.bytes);
  if (skipped.length > 0)
    await db
      .insertInto('focus_skipped')
      .values(skipped.map((s) => ({ ...s, sync_job_id: syncJobId })))
      .execute();
}
