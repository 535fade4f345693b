import type { FastifyBaseLogger } from 'fastify';
import type { InferenceDb } from '../database.js';
import { insertRequests, type NewRequest } from '../repositories/requests.js';

interface Unwritten {
  error: unknown;
  left: NewRequest[];
}

/** A failure caused by the values written, not by the database's state (SQLSTATE 22xxx, 23xxx). */
function refusedValue(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

/** PostgreSQL text cannot hold U+0000: it is taken out of every text column. */
function withoutNul(row: NewRequest): NewRequest {
  let clean: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(row))
    if (typeof value === 'string' && value.includes('\u0000')) {
      clean ??= { ...row };
      clean[key] = value.replaceAll('\u0000', '');
    }
  return (clean as NewRequest | undefined) ?? row;
}

/** Rows written per statement. */
const BATCH = 500;
/** How long a row waits for others to share its statement (unless a batch is full first). */
export const REQUEST_LOG_FLUSH_MS = 50;
/** Beyond this many rows waiting (the database down for long), the oldest go to the log only. */
const MAX_PENDING = 50_000;
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 30_000;

/**
 * The request log's writer: a call's row is queued when the call ends and written after its
 * answer has gone, within REQUEST_LOG_FLUSH_MS, many rows a statement (one insert per call cost
 * the next call about a millisecond). A failed write is logged (error level) and retried
 * with a doubling pause; rows that still cannot be written when the service closes, or that
 * overflow the queue, are logged in full (they hold no secret), so none is lost silently.
 * Readers of the log call `settled()` first: an instance always reads its own calls.
 */
export class RequestLog {
  private pending: NewRequest[] = [];
  private writing?: Promise<void>;
  private scheduled?: NodeJS.Timeout | NodeJS.Immediate;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly db: InferenceDb,
    private readonly log: FastifyBaseLogger,
    /** Sees each row as it is queued (the metrics of usage-metrics.ts). */
    private readonly observe?: (row: NewRequest) => void,
  ) {}

  add(row: NewRequest) {
    this.observe?.(row);
    this.pending.push(withoutNul(row));
    if (this.pending.length > MAX_PENDING) this.drop(this.pending.splice(0, BATCH), 'overflow');
    if (!this.failures) this.schedule(this.delay());
  }

  private delay() {
    return this.pending.length >= BATCH ? 0 : REQUEST_LOG_FLUSH_MS;
  }

  /** Resolves once the rows queued so far were written, or failed to be (then retried later). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
    for (let queued = this.pending.length; queued > 0 && this.pending.length; queued -= BATCH) {
      const failures = this.failures;
      await this.write();
      if (this.failures > failures) return;
      while (this.writing) await this.writing;
    }
  }

  /** The service closes: one last write, then whatever is left goes to the log. */
  async close() {
    this.closed = true;
    clearTimeout(this.scheduled as NodeJS.Timeout);
    clearImmediate(this.scheduled as NodeJS.Immediate);
    this.scheduled = undefined;
    this.failures = 0;
    await this.settled();
    if (this.pending.length) this.drop(this.pending.splice(0), 'closed');
  }

  private schedule(ms: number) {
    if (this.scheduled || this.closed) return;
    const run = () => {
      this.scheduled = undefined;
      void this.settled();
    };
    this.scheduled = ms ? setTimeout(run, ms) : setImmediate(run);
  }

  private write(): Promise<void> {
    const rows = this.pending.splice(0, BATCH);
    const done = this.insert(rows).then(
      () => {
        this.failures = 0;
      },
      ({ error, left }: Unwritten) => {
        this.failures++;
        this.pending.unshift(...left);
        const rows = left;
        const retryMs = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (this.failures - 1));
        this.log.error(
          { err: error, rows: rows.length, ids: rows.map((r) => r.id), retryMs },
          'inference: writing the request log failed; retrying',
        );
        if (!this.closed) this.schedule(retryMs);
      },
    );
    const writing = done.finally(() => {
      if (this.writing === writing) this.writing = undefined;
      if (this.pending.length && !this.failures) this.schedule(this.delay());
    });
    this.writing = writing;
    return writing;
  }

  /**
   * The rows in one statement; when the database refuses a value (SQLSTATE class 22 data
   * exception or 23 integrity violation), one at a time: a row it refuses alone is logged in full
   * and dropped, so that it cannot hold the others back forever. Any other failure (the database
   * away, the table missing) rejects with the rows left, all kept for the next try.
   */
  private async insert(rows: NewRequest[]): Promise<void> {
    try {
      return await insertRequests(this.db, rows);
    } catch (error) {
      if (!refusedValue(error)) throw { error, left: rows } satisfies Unwritten;
    }
    for (const [i, row] of rows.entries()) {
      try {
        await insertRequests(this.db, [row]);
      } catch (error) {
        if (!refusedValue(error)) throw { error, left: rows.slice(i) } satisfies Unwritten;
        this.log.error(
          { err: error, row },
          'inference: the database refused a request log row; dropped (the row follows)',
        );
      }
    }
  }

  private drop(rows: NewRequest[], why: 'closed' | 'overflow') {
    this.log.error({ rows, why }, 'inference: request log rows not written to the database');
  }
}
