import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { creatorOf, onceFor, type Access } from '@platform/core';
import type { InferenceConfig } from '../config.js';
import type { InferenceDb } from '../database.js';
import { Call, type CallKind } from '../providers/call.js';
import { allowedBaseUrl, readKey } from '../providers/credentials.js';
import { ProviderRegistry } from '../providers/registry.js';
import { RequestLog } from '../providers/request-log.js';
import { resolveRoute, type Route } from '../providers/routing.js';
import { checkOffers } from '../providers/sdk.js';

/**
 * Calling a model (chat, stream, embed, images, transcribe): members, and keys with the narrow
 * scope `inference:invoke` (or a broader one); never viewers.
 */
export const INVOKE: Access = {
  resource: 'inference.model',
  action: 'invoke',
  rule: 'member',
  scope: 'inference:invoke',
};

/** What the routes of one mounted instance share: the providers in memory, the log's writer. */
export interface Shared {
  providers: ProviderRegistry;
  requestLog: RequestLog;
}

// One per mounted instance: every route plugin of an instance gets the same `db`.
const shared = new WeakMap<InferenceDb, Shared>();

/** The instance's shared state; the request log is flushed when the instance closes. */
export function sharedOf(db: InferenceDb, app: FastifyInstance): Shared {
  return onceFor(shared, db, () => {
    const log: FastifyBaseLogger = app.log;
    const created: Shared = {
      providers: new ProviderRegistry(db),
      requestLog: new RequestLog(db, log),
    };
    app.addHook('onClose', () => created.requestLog.close());
    return created;
  });
}

/**
 * The app a sandbox app's call is charged to: the app itself (its backend's identity,
 * `app:<sid>`), or the one the stage service names.
 */
export function callingApp(request: FastifyRequest): string | null {
  const { identity } = request;
  if (identity?.kind === 'key' && identity.keyId.startsWith('app:')) return identity.keyId.slice(4);
  if (identity?.kind !== 'service' || identity.name !== 'stage') return null;
  const header = request.headers['x-stage-app'];
  return typeof header === 'string' && header ? header.slice(0, 100) : null;
}

/**
 * The routes of a call (model, then fallbacks) with their keys, all checked before anything runs
 * (nothing is called nor logged when one fails): the provider offers `kind`, its base URL is
 * allowed (checked before its key is read), its key is set.
 */
export async function prepare(
  { providers }: Shared,
  config: InferenceConfig,
  kind: CallKind,
  body: { model?: string; providerId?: string; fallbacks?: string[] },
) {
  const routes: Route[] = [await resolveRoute(providers, body.model, body.providerId)];
  for (const model of body.fallbacks ?? [])
    routes.push(await resolveRoute(providers, model, undefined, 'fallbacks'));
  const keys = new Map<string, string>();
  for (const { provider } of routes) {
    checkOffers(provider, kind);
    allowedBaseUrl(config, provider.type, provider.base_url);
    keys.set(provider.id, readKey(config.env, provider));
  }
  return { routes, keyOf: (route: Route) => keys.get(route.provider.id)! };
}

/**
 * A new call. A client that goes away before the answer was written (the response closes
 * unfinished) aborts the provider call at once; the call is then logged as aborted.
 */
export function startCall(
  { requestLog }: Shared,
  config: InferenceConfig,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CallKind,
) {
  const call = new Call(
    requestLog,
    kind,
    request.id,
    callingApp(request),
    config.timeoutMs,
    creatorOf(request.identity),
  );
  const res = reply.raw;
  if (res.closed && !res.writableFinished) call.clientGone();
  else
    res.once('close', () => {
      if (!res.writableFinished) call.clientGone();
    });
  return call;
}
