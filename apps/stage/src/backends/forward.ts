import type { FastifyRequest } from 'fastify';
import { API_KEY_HEADER, IDENTITY_HEADER, type Identity } from '@platform/core';
import { PREVIEW_CSP } from '../routes/pages.js';
import type { BackendEnv, WireRequest } from './protocol.js';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
]);
/** Never forwarded: the platform's own credentials (the backend is told who calls in env.auth). */
const PLATFORM = new Set(['cookie', API_KEY_HEADER, IDENTITY_HEADER]);
/**
 * The response headers a backend may send (everything else is dropped): it answers on the
 * platform's origin, so nothing that changes what that origin allows (CORS, cookies, framing,
 * CSP, HSTS, clear-site-data, refresh, service workers, cross-origin policies) nor the
 * platform's own x-stage-* / x-platform-* headers.
 */
const ALLOWED = new Set([
  'content-type',
  'content-disposition',
  'content-encoding',
  'content-language',
  'cache-control',
  'expires',
  'pragma',
  'age',
  'etag',
  'last-modified',
  'vary',
  'location',
  'link',
  'retry-after',
  'allow',
  'accept-patch',
  'server-timing',
]);
/** x-* headers a backend may not send: the platform's, and those with a meaning to browsers. */
const X_DENIED =
  /^x-(stage-|platform-|forwarded-|frame-options$|content-type-options$|xss-protection$|permitted-cross-domain-policies$|dns-prefetch-control$|request-id$|real-ip$|api-key$)/;

const allowedHeader = (name: string, value: string) => {
  if (name === 'location') return /^https?:/i.test(value) || !/^[^/?#]*:/.test(value);
  return ALLOWED.has(name) || (name.startsWith('x-') && !X_DENIED.test(name));
};

/** The caller as the handler sees it (env.auth): never a session id or a key id. */
export function authOf(identity: Identity): BackendEnv['auth'] {
  switch (identity.kind) {
    case 'user':
      return { kind: 'user', email: identity.email, name: identity.name };
    case 'key':
      return { kind: 'key', email: null, name: identity.name };
    case 'service':
      return { kind: 'service', email: identity.user ?? null, name: identity.name };
    default:
      return { kind: 'anonymous', email: null, name: null };
  }
}

/**
 * The request as the backend gets it: the path after /stage/<sid>/api (at least `/`) and the
 * query as sent, on the host it was sent to; headers without hop-by-hop ones, cookies and the
 * platform's credentials, plus x-stage-app (the sid) and x-stage-user (a signed-in caller's
 * email); any x-stage-* header the client sent is dropped.
 */
export function wireRequest(
  request: FastifyRequest,
  sid: string,
  auth: BackendEnv['auth'],
): WireRequest {
  const raw = request.url;
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const rest = `/${path.split('/').slice(4).join('/')}`;
  const connection = String(request.headers.connection ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);
  const headers: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || PLATFORM.has(name)) continue;
    if (name.startsWith('x-stage-') || connection.includes(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push([name, one]);
  }
  headers.push(['x-stage-app', sid]);
  if (auth.kind === 'user' && auth.email) headers.push(['x-stage-user', auth.email]);
  const body = Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : null;
  return {
    method: request.method,
    url: `${request.protocol}://${request.host}${rest}${q < 0 ? '' : raw.slice(q)}`,
    headers,
    body:
      body && request.method !== 'GET' && request.method !== 'HEAD' ? new Uint8Array(body) : null,
  };
}

/**
 * The backend's headers as sent back: only the allowed ones (ALLOWED, x-* but X_DENIED; a
 * location only relative or http(s)), under the sandbox's CSP (an HTML answer runs in an opaque
 * origin, like the app's pages) with nosniff.
 */
export function responseHeaders(headers: Array<[string, string]>) {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    const n = name.toLowerCase();
    if (!allowedHeader(n, value)) continue;
    const had = out[n];
    out[n] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  out['content-security-policy'] = PREVIEW_CSP;
  out['x-content-type-options'] = 'nosniff';
  return out;
}
