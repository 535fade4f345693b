import { decryptSecret, deriveKey, type AuthSettings, type TargetPolicy } from '@platform/core';
import type { LedgerDb, SinkRow } from '../database.js';
import {
  advanceCursor,
  advanceHeads,
  dueSinks,
  eventsAfter,
  headsToSend,
  recordFailure,
} from '../repositories/sinks.js';
import { sendSyslog, sendWebhook, type SinkBatch } from './sink-senders.js';

const BATCH = 200;
/** Batches one sink gets per run at most, so that one busy sink does not hold the others back. */
const MAX_BATCHES = 25;

/** The key sink secrets are encrypted with (from SESSION_SECRET); undefined without one. */
export const sinkKey = (auth: AuthSettings) =>
  auth.sessionSecret ? deriveKey(auth.sessionSecret, 'ledger sinks') : undefined;

/**
 * One run of the delivery job: every due sink gets the events after its cursor, in chain order,
 * in batches; the cursor moves only after the receiver took a batch, so a restart resumes where
 * the last acknowledged batch ended (no gap; a repeat only of a batch whose acknowledgement came
 * just as the process died, recognisable by its events' ids and seqs). A failure is retried with
 * a backoff. The job runs in one instance at a time (the durable queue), so batches never race.
 * Signed chain heads follow, each once, when the events they cover have gone.
 */
export async function deliverSinks(
  db: LedgerDb,
  auth: AuthSettings,
  policy: TargetPolicy,
  signal?: AbortSignal,
) {
  const delivered: Record<string, number> = {};
  for (const sink of await dueSinks(db)) {
    try {
      delivered[sink.name] = await deliverOne(db, sink, auth, policy, signal);
    } catch (error) {
      // A run that lost the job stops: the instance that took it over delivers from the cursor.
      if (signal?.aborted) throw error;
      await recordFailure(db, sink, (error as Error).message);
    }
  }
  return delivered;
}

async function deliverOne(
  db: LedgerDb,
  sink: SinkRow,
  auth: AuthSettings,
  policy: TargetPolicy,
  signal?: AbortSignal,
) {
  let cursor = Number(sink.cursor);
  let count = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const events = await eventsAfter(db, { after: cursor, limit: BATCH });
    if (events.length === 0) break;
    // Not sent by a run that lost the job (the cursor only moves forward, so advancing after a
    // send that the new holder repeated is harmless).
    signal?.throwIfAborted();
    await send(sink, { events, heads: [] }, auth, policy);
    cursor = Number(events.at(-1)?.seq);
    await advanceCursor(db, sink.id, cursor);
    count += events.length;
    if (events.length < BATCH) break;
  }
  // Then the heads signed since the last ones it took, over events it now has (a head is signed
  // after its events, often after they went out: it follows them on its own).
  const heads = await headsToSend(db, sink, cursor, BATCH);
  if (heads.length) {
    signal?.throwIfAborted();
    await send(sink, { events: [], heads }, auth, policy);
    await advanceHeads(db, sink.id, heads.at(-1)!.signed_at);
  }
  return count;
}

async function send(sink: SinkRow, batch: SinkBatch, auth: AuthSettings, policy: TargetPolicy) {
  if (sink.kind === 'syslog') return sendSyslog(sink, batch, policy);
  const key = sinkKey(auth);
  if (!key || !sink.secret_encrypted) throw new Error('The sink has no secret it can use');
  await sendWebhook(sink, decryptSecret(key, sink.secret_encrypted), batch, policy);
}
