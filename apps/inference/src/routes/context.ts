import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { InferenceConfig } from '../config.js';
import type { InferenceDb } from '../database.js';
import { Call, type CallKind } from '../providers/call.js';
import { readKey } from '../providers/credentials.js';
import { ProviderRegistry } from '../providers/registry.js';
import { RequestLog } from '../providers/request-log.js';
import { resolveRoute, type Route } from '../providers/routing.js';

/** What the routes of one mounted instance share: the providers in memory, the log's writer. */
export interface Shared {
  providers: ProviderRegistry;
  requestLog: RequestLog;
}

// One per mounted instance: every route plugin of an instance gets the same `db`.
const shared = new WeakMap<InferenceDb, Shared>();

/** The instance's shared state; the request log is flushed when the instance closes. */
export function sharedOf(db: InferenceDb, app: FastifyInstance): Shared {
  let state = shared.get(db);
  if (!state) {
    const log: FastifyBaseLogger = app.log;
    const created: Shared = {
      providers: new ProviderRegistry(db),
      requestLog: new RequestLog(db, log),
    };
    app.addHook('onClose', () => created.requestLog.close());
    shared.set(db, created);
    state = created;
  }
  return state;
}

/** The app a sandbox app's call is charged to: only the stage service may name one. */
export function callingApp(request: FastifyRequest): string | null {
  const { identity } = request;
  if (identity?.kind !== 'service' || identity.name !== 'stage') return null;
  const header = request.headers['x-stage-app'];
  return typeof header === 'string' && header ? header.slice(0, 100) : null;
}

/** The routes of a call (model, then fallbacks) with their keys, all checked before anything runs. */
export async function prepare(
  { providers }: Shared,
  config: InferenceConfig,
  body: { model?: string; providerId?: string; fallbacks?: string[] },
) {
  const routes: Route[] = [await resolveRoute(providers, body.model, body.providerId)];
  for (const model of body.fallbacks ?? [])
    routes.push(await resolveRoute(providers, model, undefined));
  const keys = new Map(routes.map((r) => [r.provider.id, readKey(config.env, r.provider)]));
  return { routes, keyOf: (route: Route) => keys.get(route.provider.id)! };
}

export function startCall(
  { requestLog }: Shared,
  config: InferenceConfig,
  request: FastifyRequest,
  kind: CallKind,
) {
  return new Call(requestLog, kind, request.id, callingApp(request), config.timeoutMs);
}
