import type { FastifyReply, FastifyRequest } from 'fastify';
import { creatorOf, sendError, type Access } from '@platform/core';
import type { InferenceConfig } from '../config.js';
import type { Balancer } from './balancing.js';
import { Call, type CallHooks, type CallKind } from './call.js';
import { allowedBaseUrl, readKey } from './credentials.js';
import { CallFailure, classify } from './failures.js';
import type { KeyMeter } from './limits.js';
import type { ProviderRegistry } from './registry.js';
import type { RequestLog } from './request-log.js';
import { resolveRoute, type Route } from './routing.js';
import { checkOffers } from './sdk.js';

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

/** A failure before any output: the envelope with its status, and the log row. */
export async function failBeforeOutput(
  call: Call,
  reply: FastifyReply,
  error: unknown,
  input: string,
) {
  const failure =
    error instanceof CallFailure
      ? error
      : classify(error, call.route?.provider ?? { name: 'unknown', env_var: null });
  const aborted = call.signal.reason === 'client';
  call.finish({ status: aborted ? 'aborted' : 'error', inputText: input, error: failure.message });
  return sendError(reply, failure.code, failure.message, failure.status);
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
  state: { providers: ProviderRegistry; balancer?: Balancer },
  config: InferenceConfig,
  kind: CallKind,
  body: { model?: string; providerId?: string; fallbacks?: string[] },
) {
  const { providers } = state;
  let routes: Route[] = [await resolveRoute(providers, body.model, body.providerId)];
  for (const model of body.fallbacks ?? [])
    routes.push(await resolveRoute(providers, model, undefined, 'fallbacks'));
  if (state.balancer) routes = await state.balancer.expand(routes);
  const keys = new Map<string, string>();
  let firstRefusal: unknown;
  const usable = routes.filter(({ provider, pooled }) => {
    try {
      checkOffers(provider, kind);
      allowedBaseUrl(config, provider.type, provider.base_url);
      keys.set(provider.id, readKey(config.env, provider));
      return true;
    } catch (error) {
      // One of a pool's providers that cannot be used is left out (the others serve).
      if (!pooled) throw error;
      firstRefusal ??= error;
      return false;
    }
  });
  if (!usable.length) throw firstRefusal;
  return { routes: usable, keyOf: (route: Route) => keys.get(route.provider.id)! };
}

/** The platform API key a call is made with, whose limits apply (sandbox apps' keys excepted). */
export function keyOf(request: FastifyRequest): string | null {
  const { identity } = request;
  return identity?.kind === 'key' && !identity.keyId.startsWith('app:') ? identity.keyId : null;
}

/**
 * A new call. A client that goes away before the answer was written (the response closes
 * unfinished) aborts the provider call at once; the call is then logged as aborted.
 */
export function startCall(
  state: { requestLog: RequestLog; meter?: KeyMeter; balancer?: Balancer },
  config: InferenceConfig,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: CallKind,
) {
  const { meter, balancer } = state;
  const keyId = keyOf(request);
  const hooks: CallHooks = {
    admit: meter && keyId ? (routes) => meter.admit(keyId, routes, reply) : undefined,
    settle: meter && keyId ? (tokens, cost) => meter.record(keyId, tokens, cost) : undefined,
    failed: balancer && ((route, failure) => balancer.failed(route, failure)),
  };
  const call = new Call(
    state.requestLog,
    kind,
    request.id,
    callingApp(request),
    config.timeoutMs,
    creatorOf(request.identity),
    keyId,
    hooks,
  );
  const res = reply.raw;
  if (res.closed && !res.writableFinished) call.clientGone();
  else
    res.once('close', () => {
      if (!res.writableFinished) call.clientGone();
    });
  return call;
}
