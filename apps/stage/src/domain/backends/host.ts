import type { FastifyBaseLogger } from 'fastify';
import { ApiError, type Identity } from '@platform/core';
import { kvDelete, kvGet, kvList, kvSet, kvUsage } from '../../repositories/backends.js';
import type { StageBaseContext } from '../state.js';
import type { StartRun } from '../workflows/run.js';
import type { Outbound } from './outbound.js';

/** The request a call acts for: its app and its caller (from the service's own records). */
export interface CallContext {
  sid: string;
  identity: Identity;
}

const MAX_KEY_LENGTH = 512;

class CallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
const bad = (message: string) => new CallError('BAD_REQUEST', message);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function key(op: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_KEY_LENGTH)
    throw bad(`${op}: the key must be a string of 1 to ${MAX_KEY_LENGTH} characters`);
  return value;
}

/** Only the fields the inference service declares: anything else would be refused there. */
function pick(op: string, input: unknown, fields: readonly string[]) {
  if (!isObject(input)) throw bad(`${op}: pass an object, e.g. { model, messages }`);
  const unknown = Object.keys(input).filter((k) => !fields.includes(k));
  if (unknown.length) throw bad(`${op}: unknown field ${unknown[0]}`);
  return input;
}

/**
 * One virtual-module call of an app backend, run in the service: `@stage/compute` kv and
 * workflows, `@stage/inference` chat and embed, the global fetch (outbound.ts). Arguments are untrusted copies from the isolate,
 * checked here; `request` is null for calls that act for the app only (kv).
 */
export async function hostCall(
  ctx: StageBaseContext,
  { outbound, startRun }: { outbound: Outbound; startRun: StartRun },
  sid: string,
  request: CallContext | null,
  op: string,
  args: unknown[],
): Promise<unknown> {
  const { db, config } = ctx;
  switch (op) {
    case 'kv.get': {
      const value = await kvGet(db, sid, key(op, args[0]));
      return value === undefined ? null : JSON.parse(value);
    }
    case 'kv.set': {
      if (args[1] === undefined) throw bad('kv.set: the value is missing (use kv.delete)');
      const text = JSON.stringify(args[1]);
      const size = Buffer.byteLength(text);
      if (size > config.backends.kvMaxValueBytes)
        throw new CallError(
          'PAYLOAD_TOO_LARGE',
          `kv.set: the value is ${size} bytes of JSON, over ${config.backends.kvMaxValueBytes} (STAGE_BACKEND_KV_MAX_VALUE_BYTES)`,
        );
      const name = key(op, args[0]);
      // The app's quota (approximate under concurrent sets: at most 16 calls of an app at once).
      const used = await kvUsage(db, sid, name);
      const { kvMaxKeys, kvMaxBytes } = config.backends;
      if (used.keys + 1 > kvMaxKeys)
        throw new CallError('PAYLOAD_TOO_LARGE', `kv.set: the app already keeps ${used.keys} keys, the most it may (STAGE_BACKEND_KV_MAX_KEYS)`); // prettier-ignore
      if (used.bytes + size > kvMaxBytes)
        throw new CallError('PAYLOAD_TOO_LARGE', `kv.set: the app's values would take ${used.bytes + size} bytes, over ${kvMaxBytes} (STAGE_BACKEND_KV_MAX_BYTES)`); // prettier-ignore
      await kvSet(db, sid, name, text, size);
      return null;
    }
    case 'kv.delete':
      return kvDelete(db, sid, key(op, args[0]));
    case 'kv.list': {
      const options = args[0] ?? {};
      if (!isObject(options)) throw bad('kv.list: pass { prefix, limit, cursor }');
      const { prefix = '', limit = 100, cursor = null } = options;
      if (typeof prefix !== 'string') throw bad('kv.list: prefix must be a string');
      if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 1000)
        throw bad('kv.list: limit must be an integer from 1 to 1000');
      if (cursor !== null && typeof cursor !== 'string')
        throw bad('kv.list: cursor must be the cursor of the previous page');
      return kvList(db, sid, { prefix, limit: limit as number, after: cursor as string | null });
    }
    case 'fetch':
      // Acts for the app (no caller's identity is sent anywhere): the global fetch.
      return outbound.fetch(args[0]);
  }
  if (request === null || request.sid !== sid) throw bad(`${op} needs the env of a request`);
  const platform = () => ctx.platformFor(request.identity, { 'x-stage-app': sid }).inference;
  switch (op) {
    case 'inference.chat': {
      const body = pick(op, args[0], ['model', 'messages', 'maxTokens', 'providerId', 'fallbacks']);
      return platform().chat({ body: body as never });
    }
    case 'inference.embed': {
      const body = pick(op, args[0], ['model', 'input', 'providerId']);
      return platform().embed({ body: body as never });
    }
    case 'workflows.run': {
      const [workflow, input = {}, options = {}] = args;
      if (typeof workflow !== 'string' || workflow === '')
        throw bad('runWorkflow: name the workflow, e.g. runWorkflow(env, "signup", input)');
      if (!isObject(input)) throw bad('runWorkflow: the input must be an object');
      if (!isObject(options)) throw bad('runWorkflow: options must be { idempotencyKey }');
      const { idempotencyKey } = options;
      if (idempotencyKey !== undefined && typeof idempotencyKey !== 'string')
        throw bad('runWorkflow: idempotencyKey must be a string');
      return startRun({
        app: sid,
        workflow,
        input,
        identity: request.identity,
        ...(idempotencyKey ? { idempotencyKey } : {}),
      });
    }
    default:
      throw bad(`Unknown platform call ${op}`);
  }
}

/** What the isolate is told of a failed call: the envelope's code and message, nothing more. */
export function callFailure(
  error: unknown,
  log: Pick<FastifyBaseLogger, 'error'>,
): { code: string; message: string } {
  if (error instanceof CallError || error instanceof ApiError)
    return { code: error.code, message: error.message };
  const e = error as { name?: string; code?: unknown; message?: unknown };
  // The platform client's PlatformError: another service's envelope.
  if (e?.name === 'PlatformError' && typeof e.code === 'string')
    return { code: e.code, message: String(e.message) };
  // Ours to fix, not the app's: logged here, the app told only that it failed.
  log.error({ err: error }, 'stage backend: a platform call of an app backend failed');
  return { code: 'INTERNAL_ERROR', message: 'The platform call failed' };
}
