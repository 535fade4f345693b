import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { invoke } from '../api.js';
import { usageError } from '../errors.js';
import type { Output } from '../output.js';

/**
 * Every event of an NDJSON file, checked before anything is sent (problems all at once, exit 2).
 * An event without an `id` gets one made from the file's content and its line number: importing
 * the same file again (after a failure midway) stores nothing twice, the server counting the
 * events it had as duplicates.
 */
async function readEvents(file: string): Promise<unknown[]> {
  try {
    await stat(file);
  } catch {
    throw usageError(`No such file: ${file}`);
  }
  const events: Array<Record<string, unknown>> = [];
  const lines: number[] = [];
  const problems: string[] = [];
  const content = createHash('sha256');
  let line = 0;
  for await (const text of createInterface({
    input: createReadStream(file),
    crlfDelay: Infinity,
  })) {
    line++;
    content.update(`${text}\n`);
    if (text.trim() === '') continue;
    try {
      const event = JSON.parse(text);
      if (
        !event ||
        typeof event !== 'object' ||
        Array.isArray(event) ||
        typeof event.name !== 'string'
      )
        problems.push(`line ${line}: an event is an object with a name`);
      else {
        events.push(event);
        lines.push(line);
      }
    } catch {
      problems.push(`line ${line}: not valid JSON`);
    }
  }
  if (problems.length > 0)
    throw usageError(
      `${file}: nothing sent, ${problems.length} bad line${problems.length === 1 ? '' : 's'}:\n${problems
        .slice(0, 20)
        .map((p) => `- ${p}`)
        .join('\n')}`,
    );
  const fileHash = content.digest('hex');
  return events.map((event, i) =>
    event.id === undefined ? { id: eventId(fileHash, lines[i]), ...event } : event,
  );
}

/** `imp_` and 40 characters of SHA-256 of the file's content hash and the line (pulse ids: 1-64 of A-Z a-z 0-9 _ -). */
export const eventId = (contentHash: string, line: number) =>
  `imp_${createHash('sha256').update(`${contentHash}:${line}`).digest('base64url').slice(0, 40)}`;

/** `platform pulse import`: the batch endpoint, `batchSize` events a request. */
export async function importPulse(file: string, batchSize: number, out: Output): Promise<void> {
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 1000)
    throw usageError('--batch-size must be 1-1000');
  const events = await readEvents(file);
  const bar = out.progress(events.length, 'Importing');
  let ingested = 0;
  let duplicates = 0;
  for (let i = 0; i < events.length; i += batchSize) {
    const batch = events.slice(i, i + batchSize);
    try {
      const data = await invoke<{ ingested: number; duplicates?: number }>('pulse.trackEvents', {
        body: { events: batch },
      });
      ingested += data.ingested;
      duplicates += data.duplicates ?? 0;
    } catch (error) {
      bar.stop();
      if (error instanceof Error)
        error.message = `Events ${i + 1}-${i + batch.length} (after ${ingested} ingested): ${error.message}`;
      throw error;
    }
    bar.increment(batch.length);
  }
  bar.stop();
  out.data(
    { ingested, duplicates, batches: Math.ceil(events.length / batchSize) },
    undefined,
    () => `Imported ${ingested} events${duplicates ? ` (${duplicates} duplicates skipped)` : ''}`,
  );
}
