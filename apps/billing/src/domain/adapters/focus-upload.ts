import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest, JobFailure } from '@platform/core';
import type { BillingDb, SyncJobRow } from '../../database.js';
import { failImport, markStaged, type ImportProgress } from '../../repositories/focus-imports.js';
import { ProviderError } from './adapter.js';

/** The error of an uploaded sync whose process stopped before all its rows were staged. */
export const UPLOAD_CUT_SHORT =
  'The upload was cut short: the service stopped before the whole file had arrived; upload it again';

/** What receiving an upload asks of the sync routes. */
export interface Staging {
  /** Stores the sync job and its durable job, which waits for `track`'s promise, then merges. */
  start(): Promise<unknown>;
  /** Stages the CSV's rows as they arrive. */
  stage(body: AsyncIterable<Buffer>): Promise<ImportProgress>;
  /** Tells the durable job's run (in this process) when every row is staged, or why not. */
  track(staged: Promise<void>): void;
  untrack(): void;
  /**
   * Settles once the answer has left: the merge waits for it, since on PGlite (one session) the
   * merge's transaction holds back the answer's own writes (its audit row) until it ends.
   */
  answered?: Promise<unknown>;
  log: { error(obj: object, msg: string): void };
}

const tooLarge = (max: number) =>
  new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${max} bytes`);

/**
 * Receives a FOCUS CSV request body: the sync job is made once its first byte is there (an empty
 * body makes none), then the rows are staged as they arrive, never more than `maxBytes`. Answers
 * the sync job once every row is staged (staged_at set). Anything else (the client went away, the
 * body is too large or not a FOCUS CSV, the database failed) fails the sync job with what went
 * wrong and drops its staged rows before the error is thrown.
 */
export async function receiveUpload(
  db: BillingDb,
  body: IncomingMessage,
  syncJobId: string,
  maxBytes: number,
  staging: Staging,
): Promise<SyncJobRow> {
  if (Number(body.headers['content-length'] ?? 0) > maxBytes) throw tooLarge(maxBytes);
  const chunks = body.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  const first = await chunks.next();
  if (first.done) throw badRequest('The request body is empty; send the FOCUS CSV as text/csv');
  let size = 0;
  async function* limited() {
    for (let next = first; !next.done; next = await chunks.next()) {
      size += next.value.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      yield next.value;
    }
  }

  let settle: (error?: Error) => void = () => undefined;
  const staged = new Promise<void>((resolve, reject) => {
    settle = (error) => (error ? reject(error) : resolve());
  });
  staged.catch(() => undefined); // the job's run reports it; none may be waiting
  staging.track(staged);
  try {
    await staging.start();
    const progress = await staging.stage(limited());
    const row = await markStaged(db, syncJobId, progress);
    if (!row)
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        'The sync job ended while the file arrived (another instance took it over); upload it again',
      );
    void (staging.answered ?? Promise.resolve()).then(() => settle());
    return row;
  } catch (error) {
    const known = error instanceof ApiError || error instanceof ProviderError;
    const gone = !known && body.destroyed && !body.complete;
    const message = known
      ? error.message
      : gone
        ? `The upload was cut short after ${size} bytes: the client went away, or the body took longer than REQUEST_TIMEOUT_MS`
        : 'The upload failed; see the service log';
    if (!known && !gone) staging.log.error({ err: error, job: syncJobId }, 'upload failed');
    await failImport(db, syncJobId, message).catch((cause: unknown) =>
      staging.log.error({ err: cause, job: syncJobId }, 'failed upload not cleaned up'),
    );
    settle(new JobFailure(message));
    // The rest of the body is read and dropped (within REQUEST_TIMEOUT_MS), so that the answer
    // reaches the client and the connection ends cleanly.
    if (!body.complete) {
      await chunks.return?.();
      body.resume();
    }
    // No one hears the answer of a client that went away: a plain error, not a failure to log.
    throw error instanceof ProviderError || gone ? badRequest(message) : error;
  } finally {
    staging.untrack();
  }
}
