/**
 * The worker thread that owns the embedded database (started by pglite-remote.ts): PGlite's WASM
 * engine runs here, off the event loop that serves HTTP. It answers each message in arrival order;
 * which holder may send (one transaction at a time) is decided on the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parse, PGlite, protocol } from '@electric-sql/pglite';
import { growMemoryFilesInPlace } from './copy.js';
import { PGLITE_EXTENSIONS } from './pglite-extensions.js';
import type { WorkerReply, WorkerRequest } from './pglite-remote.js';

const INT8_OID = 20;
const port = parentPort!;

/** Answers go over together once PGlite has run what it was sent (one message, one wake-up). */
let outbox: WorkerReply[] = [];
const flush = () => {
  const batch = outbox;
  outbox = [];
  port.postMessage(batch);
};
const post = (reply: WorkerReply) => {
  if (outbox.push(reply) === 1) setImmediate(flush);
};

/** An error as plain fields (structured clone keeps only an Error's message and stack). */
function fields(error: unknown): Record<string, unknown> {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const out: Record<string, unknown> = { message: (error as Error).message ?? String(error) };
  for (const [key, value] of Object.entries(error))
    if (key !== 'length' && (typeof value === 'string' || typeof value === 'number'))
      out[key] = value;
  return out;
}

/**
 * A parameter as text, of a type the server infers from the statement: what `pg` sends to
 * PostgreSQL (pg/lib/utils prepareValue), so that both backends take the same values.
 */
function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function arrayLiteral(values: unknown[]): string {
  const items = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return arrayLiteral(value);
    return `"${text(value)!.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

/**
 * One statement in one call into the engine: Parse, Bind, Describe, Execute and Sync go in one
 * buffer (PGlite's own query() makes six calls, asking for the parameter types first). The rows
 * are parsed as query() parses them.
 */
async function run(pglite: PGlite, sql: string, params: unknown[]) {
  const S = protocol.serialize;
  const parts = [
    S.parse({ text: sql }),
    S.bind({ values: params.map(text) }),
    S.describe({ type: 'P' }),
    S.execute({}),
    S.sync(),
  ];
  const message = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  const { messages } = await pglite.execProtocol(message);
  return parse.parseResults(messages, pglite.parsers)[0];
}

async function main() {
  const { location } = workerData as { location: string };
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(location, { extensions: PGLITE_EXTENSIONS });
    pglite.parsers[INT8_OID] = (value: string) => Number(value);
    growMemoryFilesInPlace(pglite);
  } catch (error) {
    post({ id: 0, error: fields(error) });
    return;
  }
  const unlisten = new Map<string, () => Promise<void>>();

  // Each request is answered once PGlite has run it; PGlite runs them in arrival order.
  const answer = async (request: WorkerRequest) => {
    const { id } = request;
    try {
      switch (request.op) {
        case 'query': {
          // A COPY from /dev/blob: PGlite's own query() hands the blob to the engine.
          const result = request.blob
            ? await pglite.query(request.sql, request.params, { blob: request.blob })
            : await run(pglite, request.sql, request.params);
          post({ id, rows: result.rows, affectedRows: result.affectedRows });
          break;
        }
        case 'listen': {
          const { channel } = request;
          if (!unlisten.has(channel))
            unlisten.set(
              channel,
              await pglite.listen(channel, (payload) => post({ id: -1, channel, payload })),
            );
          post({ id, rows: [] });
          break;
        }
        case 'unlisten': {
          const stop = unlisten.get(request.channel);
          unlisten.delete(request.channel);
          if (stop) await stop();
          post({ id, rows: [] });
          break;
        }
        case 'close':
          if (!pglite.closed) await pglite.close();
          post({ id, rows: [] });
          setImmediate(() => port.close());
          break;
      }
    } catch (error) {
      post({ id, error: fields(error) });
    }
  };
  // One at a time, in arrival order (a LISTEN is several calls into the engine).
  let queue = Promise.resolve();
  port.on('message', (requests: WorkerRequest[]) => {
    for (const request of requests) queue = queue.then(() => answer(request));
  });
  post({ id: 0, rows: [] });
}

void main();
