// The blocks of issue 40 besides the platform ones in peers.ts: http.request (the app backends'
// outbound fetch: its private-address guard, STAGE_BACKEND_FETCH_ALLOW, its time and size
// limits), inference.chat (the inference service), backend.call (the app's own backend route).
import { ApiError, badGateway, badRequest } from '@platform/core';
import { appForBackend } from '../../repositories/backends.js';
import { BACKEND_ENTRIES } from '../backends/bundle.js';
import { labelOf } from '../origins.js';
import { authScope } from './durable.js';
import { peerError, stepKey, type BlockEnv } from './peers.js';

type Fields = Record<string, unknown>;

const outbound = (env: BlockEnv) => env.engine.outbound;
const backends = (env: BlockEnv) => env.engine.backends;

/** The answer's body: JSON when it says so (and parses), else text. */
function bodyOf(headers: Array<[string, string]>, bytes: Uint8Array): unknown {
  const type = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const text = Buffer.from(bytes).toString('utf8');
  if (/[/+]json\b/i.test(type))
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  return text;
}

/** A request's headers and body: an object or array body is sent as JSON. */
function outgoing(env: BlockEnv, fields: Fields) {
  const headers: Array<[string, string]> = Object.entries((fields.headers ?? {}) as Fields).map(
    ([name, value]) => [name, String(value)],
  );
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  let body: Uint8Array | null = null;
  if (fields.body !== undefined && fields.body !== null) {
    const json = typeof fields.body !== 'string';
    body = new Uint8Array(Buffer.from(json ? JSON.stringify(fields.body) : (fields.body as string))); // prettier-ignore
    if (json && !has('content-type')) headers.push(['content-type', 'application/json']);
  }
  // The step's key: a target that honours Idempotency-Key acts once however often it is sent.
  if (!has('idempotency-key')) headers.push(['idempotency-key', env.key ?? stepKey(env)]);
  return { headers, body };
}

/**
 * `http.request`: answers `{ status, headers, body }`. A 5xx or 429 answer fails the step as a
 * 502 (worth a retry), another 4xx as a 400 (not), unless `failOnError: false`.
 */
export async function httpRequest(env: BlockEnv, fields: Fields) {
  const { headers, body } = outgoing(env, fields);
  const method = ((fields.method as string | undefined) ?? 'GET').toUpperCase();
  const answer = await outbound(env).fetch({ url: fields.url, method, headers, body, redirect: 'follow' }); // prettier-ignore
  const host = new URL(answer.url).host;
  const result = {
    status: answer.status,
    headers: Object.fromEntries(answer.headers.map(([n, v]) => [n.toLowerCase(), v])),
    body: bodyOf(answer.headers, answer.body),
  };
  if (fields.failOnError !== false && answer.status >= 400) {
    const what = `${method} ${host} answered ${answer.status} ${answer.statusText}`.trim();
    if (answer.status >= 500) throw badGateway(what);
    if (answer.status === 429) throw new ApiError('RATE_LIMITED', what);
    throw badRequest(what);
  }
  return result;
}

/** `inference.chat`: the inference service's chat, attributed to the app. */
export async function inferenceChat(env: BlockEnv, fields: Fields) {
  const client = env.ctx.platformFor(env.identity, { 'x-stage-app': env.app.sid }).inference;
  try {
    return await client.chat({ body: fields as never });
  } catch (error) {
    throw peerError('inference', error);
  }
}

/** The app's own origin, as a backend request's URL has it (as its scheduled requests do). */
function appOrigin(env: BlockEnv) {
  const { origins } = env.ctx.config;
  const base = new URL(origins.publicUrl ?? 'http://localhost');
  return `${base.protocol}//${labelOf(env.app.sid)}.${origins.appsDomain}${base.port ? `:${base.port}` : ''}`; // prettier-ignore
}

/**
 * `backend.call`: a request to the app's own backend (the routes of its backend entry), as a
 * request of the run's caller (`env.auth`), the backend acting as the app as it does for
 * visitors; answers `{ status, headers, body }`, failing as http.request does.
 */
export async function backendCall(env: BlockEnv, fields: Fields) {
  const path = fields.path as string;
  if (!path.startsWith('/') || path.startsWith('//') || /[\s#]/.test(path))
    throw badRequest(`field path must be a path of the app's backend starting with /, e.g. /orders?id=1`); // prettier-ignore
  const method = ((fields.method as string | undefined) ?? 'POST').toUpperCase();
  const { headers, body } = outgoing(env, fields);
  const runner = backends(env);
  const found = await appForBackend(env.ctx.db, env.app.sid);
  if (!found) throw badRequest(`App ${env.app.sid} not found`);
  const build = await runner.builds.get(found);
  if (build.kind === 'none') throw badRequest(`App ${env.app.name} has no backend (add ${BACKEND_ENTRIES[0]} to its session)`); // prettier-ignore
  if (build.kind === 'error') throw badRequest(`The backend of ${env.app.name} did not build: ${build.message}`); // prettier-ignore
  const auth = authScope(env.identity) as { kind: string; email?: string; name?: string };
  const outcome = await runner.run(
    {
      sid: found.sid,
      hash: build.hash,
      code: build.code,
      request: { method, url: `${appOrigin(env)}/api${path}`, headers: [...headers, ['user-agent', 'platform-stage-workflow']], body }, // prettier-ignore
      env: {
        auth: { kind: auth.kind, email: auth.email ?? null, name: auth.name ?? null },
        app: { sid: found.sid, name: found.name, config: found.config, basePath: '/api' },
      },
      context: { sid: found.sid, identity: await runner.identityOf(found) },
    },
    { requestId: env.key ?? stepKey(env), source: 'request' },
  );
  if (!outcome.ok) throw badGateway(`The backend of ${env.app.name} failed (${outcome.failure.kind}): ${outcome.failure.message}`); // prettier-ignore
  const { status } = outcome.response;
  const result = {
    status,
    headers: Object.fromEntries(outcome.response.headers.map(([n, v]) => [n.toLowerCase(), v])),
    body: bodyOf(outcome.response.headers, outcome.response.body),
  };
  if (fields.failOnError !== false && status >= 400) {
    const what = `The backend of ${env.app.name} answered ${method} ${path.split('?')[0]} with ${status}`; // prettier-ignore
    if (status >= 500) throw badGateway(what);
    throw badRequest(what);
  }
  return result;
}
