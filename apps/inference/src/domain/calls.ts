import type { FastifyReply, FastifyRequest } from 'fastify';
import { creatorOf, sendError, type Access } from '@platform/core';
import type { InferenceConfig } from '../config.js';
import { Call, type CallKind } from './call.js';
import { callOptions, type ChatMessage } from './chat-model.js';
import { allowedBaseUrl, readKey } from './credentials.js';
import { CallFailure, classify } from './failures.js';
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

export type ChatInput = {
  model?: string;
  messages: ChatMessage[];
  maxTokens?: number;
  providerId?: string;
  fallbacks?: string[];
};

export const modelOptions = (call: Call, body: ChatInput) =>
  callOptions(body.messages, body.maxTokens, call.signal, call.requestId);

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
  { providers }: { providers: ProviderRegistry },
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
  { requestLog }: { requestLog: RequestLog },
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
