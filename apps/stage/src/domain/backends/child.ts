// The backend runtime: a child process of the stage service (forked by supervisor.ts with
// --no-node-snapshot) holding one isolate per warm app backend. It has no database, no secrets
// and no environment of the service; every platform call of an isolate goes to the service as a
// message. A V8 failure that takes it down fails only the requests under way, and it is respawned.
import { createHash, randomBytes } from 'node:crypto';
import ivm from 'isolated-vm';
import { Backend, type HostResult, type Outcome } from './isolate.js';
import { LogBook } from './log-book.js';
import type { FromChild, RuntimeLimits, ToChild } from './protocol.js';

const limits = JSON.parse(process.env.STAGE_BACKEND_LIMITS ?? '{}') as RuntimeLimits;
const TICK_MS = 10;

const send = (message: FromChild) => process.send?.(message);
/** The console.* lines of the requests under way. */
const book = new LogBook(limits);
/** A request's answer, with its console.* lines. */
const answer = (request: Extract<ToChild, { type: 'fetch' }>, outcome: Outcome) =>
  send({ type: 'response', id: request.id, ...outcome, logs: book.end(request.sid, request.id) });

/** Warm backends by sid, least recently used first. */
const backends = new Map<string, Backend>();
/** Boots under way, by sid and hash: concurrent first requests share one. */
const booting = new Map<string, Promise<Backend | { kind: string; message: string }>>();
/** Backends replaced by a newer version, disposed once their last request ends. */
const retiring = new Set<Backend>();

const calls = new Map<number, (result: HostResult) => void>();
let nextCall = 1;
/** Largest input of sha256, in bytes: the runtime's main thread hashes it. */
const MAX_HASH_BYTES = 1024 * 1024;

const hostCalls = (sid: string) => ({
  call(request: number | null, op: string, args: unknown[]) {
    // Calls acting for the app only (kv, fetch) need no request; the others act for its caller.
    if (request === null && !op.startsWith('kv.') && op !== 'fetch')
      return Promise.resolve<HostResult>({
        ok: false,
        code: 'BAD_REQUEST',
        message: `${op} needs the env of a request`,
      });
    const id = nextCall++;
    return new Promise<HostResult>((resolve) => {
      calls.set(id, resolve);
      send({ type: 'call', id, sid, request, op, args });
    });
  },
  sync(op: unknown, arg: unknown) {
    if (op === 'console') return void book.add(sid, arg);
    if (op === 'random' && typeof arg === 'number' && arg >= 0 && arg <= 65536)
      return new ivm.ExternalCopy(new Uint8Array(randomBytes(arg))).copyInto();
    if (op === 'sha256' && (typeof arg === 'string' || arg instanceof Uint8Array)) {
      const size = typeof arg === 'string' ? Buffer.byteLength(arg) : arg.byteLength;
      if (size > MAX_HASH_BYTES)
        throw new RangeError(`sha256: the input is ${size} bytes, over ${MAX_HASH_BYTES}`);
      return createHash('sha256').update(arg).digest('hex');
    }
    throw new TypeError(`Unknown platform call ${String(op)}`);
  },
});

const recycled = (message: string) => ({ kind: 'recycled' as const, message });

/**
 * Keeps `backend` as its app's warm isolate, within STAGE_BACKEND_MAX_ISOLATES isolates in all
 * (warm and retiring): beyond it go the least recently used idle ones, then the oldest retiring
 * ones, then (a hard cap) the least recently used busy ones, their requests failing (503).
 */
function remember(backend: Backend) {
  const old = backends.get(backend.sid);
  if (old && old !== backend) retire(old);
  backends.delete(backend.sid);
  backends.set(backend.sid, backend);
  const over = () => backends.size + retiring.size > limits.maxIsolates;
  const evict = (busyToo: boolean) => {
    for (const [sid, warm] of backends) {
      if (!over()) return;
      if (warm === backend || (warm.busy && !busyToo)) continue;
      backends.delete(sid);
      warm.kill(recycled('too many app backends were busy at once (STAGE_BACKEND_MAX_ISOLATES)'));
    }
  };
  evict(false);
  for (const oldest of retiring) {
    if (!over()) return;
    retiring.delete(oldest);
    oldest.kill(recycled('a newer version replaced it while this request ran, and too many app backends were running (STAGE_BACKEND_MAX_ISOLATES)')); // prettier-ignore
  }
  evict(true);
}

function retire(backend: Backend) {
  if (backend.busy) retiring.add(backend);
  else backend.dispose();
}

/** The warm backend of the request's app at its version, booted if need be; pinned (see fetch). */
async function backendFor(message: Extract<ToChild, { type: 'fetch' }>) {
  const { sid, hash, code } = message;
  const warm = backends.get(sid);
  if (warm && warm.hash === hash && !warm.dead) {
    warm.pins += 1;
    remember(warm);
    return warm;
  }
  const key = `${sid}:${hash}`;
  let boot = booting.get(key);
  if (!boot) {
    if (code === undefined) return undefined;
    boot = Backend.boot(sid, hash, code, limits, hostCalls(sid));
    booting.set(key, boot);
    void boot.finally(() => booting.delete(key));
  }
  const booted = await boot;
  if (booted instanceof Backend && !booted.dead) {
    booted.pins += 1;
    remember(booted);
  }
  return booted;
}

/** Every isolate, every tick: CPU budgets, background work (isolate.ts watch). */
setInterval(() => {
  for (const backend of [...backends.values(), ...retiring]) {
    backend.watch();
    if (!backend.dead) continue;
    if (backends.get(backend.sid) === backend) backends.delete(backend.sid);
    retiring.delete(backend);
  }
}, TICK_MS);

async function handleFetch(message: Extract<ToChild, { type: 'fetch' }>) {
  book.begin(message.sid, message.id);
  const backend = await backendFor(message);
  if (backend === undefined) {
    book.end(message.sid, message.id);
    return send({ type: 'missing', id: message.id });
  }
  if (!(backend instanceof Backend))
    return answer(message, {
      ok: false,
      failure: backend as Extract<Outcome, { ok: false }>['failure'],
    });
  let outcome: Outcome;
  try {
    outcome = await backend.fetch(message.id, message.request, message.env);
  } finally {
    backend.pins -= 1;
  }
  if (backend.dead) {
    if (backends.get(backend.sid) === backend) backends.delete(backend.sid);
    retiring.delete(backend);
  } else if (retiring.has(backend) && !backend.busy) {
    retiring.delete(backend);
    backend.dispose();
  }
  answer(
    message,
    outcome.ok ? { ok: true, response: outcome.response } : { ok: false, failure: outcome.failure },
  );
}

process.on('message', (message: ToChild) => {
  if (message.type === 'fetch') {
    handleFetch(message).catch((error: unknown) =>
      answer(message, {
        ok: false,
        failure: { kind: 'crashed', message: `the runtime failed: ${(error as Error).message}` },
      }),
    );
  } else if (message.type === 'result') {
    const resolve = calls.get(message.id);
    calls.delete(message.id);
    resolve?.(
      message.ok
        ? { ok: true, value: message.value }
        : { ok: false, code: message.code, message: message.message },
    );
  }
});
// The service went away, or stops it: so does the runtime, its isolates disposed first.
const shutdown = () => {
  for (const backend of [...backends.values(), ...retiring]) backend.dispose();
  process.exit(0);
};
process.on('disconnect', shutdown);
process.on('SIGTERM', shutdown);
send({ type: 'ready' });
