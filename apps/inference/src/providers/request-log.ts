import type { FastifyBaseLogger } from 'fastify';
import type { InferenceDb } from '../database.js';
import { insertRequests, type NewRequest } from '../repositories/requests.js';

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
  ) {}

  add(row: NewRequest) {
    this.pending.push(row);
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
    const done = insertRequests(this.db, rows).then(
      () => {
        this.failures = 0;
      },
      (error: unknown) => {
        this.failures++;
        this.pending.unshift(...rows);
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

  private drop(rows: NewRequest[], why: 'closed' | 'overflow') {
    this.log.error({ rows, why }, 'inference: request log rows not written to the database');
  }
}
