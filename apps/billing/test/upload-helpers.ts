import { Readable } from 'node:stream';
import { sql, type PlatformDatabase } from '@platform/db';
import { sleep, type JsonApi } from '@platform/testing';
import { request } from 'undici';

// Uploads of FOCUS files to POST /sync/focus over a real socket, as a client streams them.

export const MiB = 2 ** 20;
export const WINDOW = 'from=2026-01-01&to=2026-01-31';

export async function upload(base: string, body: AsyncIterable<string> | string, query = WINDOW) {
  const res = await request(`${base}/api/v1/billing/sync/focus?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: typeof body === 'string' ? body : Readable.from(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

/**
 * `pieces` as a body that stops after `bytes` until `resume()` is called: what a client still
 * sending the rest of its file looks like.
 */
export function paused(pieces: AsyncIterable<string>, bytes: number) {
  let resume: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (resume = resolve));
  async function* body() {
    let sent = 0;
    for await (const piece of pieces) {
      if (sent >= bytes) await gate;
      sent += Buffer.byteLength(piece);
      yield piece;
    }
  }
  return { body: body(), resume };
}

/** The running FOCUS sync job, once it shows rows written (its upload has not been answered). */
export async function stagingJob(api: Pick<JsonApi, 'get'>) {
  for (let i = 0; i < 500; i++) {
    const [job] = (await api.get('/sync/jobs?provider=focus')).body.data;
    if (job?.status === 'running' && job.rowsWritten > 0) return job;
    await sleep(20);
  }
  throw new Error('no upload staged rows');
}

/** Rows staged (of every sync) and skipped rows kept. */
export async function stored(db: PlatformDatabase) {
  const { rows } = await sql<{ staged: number; skipped: number }>`select
    (select count(*)::int from billing.focus_rows) as staged,
    (select count(*)::int from billing.focus_skipped) as skipped`.execute(db.kysely);
  return rows[0];
}
