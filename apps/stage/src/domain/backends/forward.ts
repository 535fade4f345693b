import type { FastifyRequest } from 'fastify';
import { API_KEY_HEADER, IDENTITY_HEADER, type Identity } from '@platform/core';
import { VISITOR_COOKIE } from '../visitors.js';
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
/**
 * What an HTML answer of a backend on the platform's origin runs under: an opaque origin (no
 * cookies, no storage, nothing of the platform's) that may not fetch, frame or post anywhere.
 */
export const SANDBOXED_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-scripts allow-forms allow-modals allow-popups',
].join('; ');

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

/** Where a request goes in a backend: the URL it sees (its own origin, the path after the mount). */
export interface Target {
  sid: string;
  /** `<scheme>://<host>` as the backend sees it. */
  origin: string;
  /** The path and query after the mount (`/stage/<sid>/api` or an app origin's `/api`). */
  rest: string;
}

/**
 * The request as the backend gets it: `target`'s URL; headers without hop-by-hop ones, cookies
 * of the platform and its credentials, plus x-stage-app (the sid) and x-stage-user (a signed-in
 * visitor's email); any x-stage-* header the client sent is dropped. On the app's own origin its
 * own cookies go through (`keepCookies`).
 */
export function wireRequest(
  request: FastifyRequest,
  target: Target,
  auth: BackendEnv['auth'],
  keepCookies = false,
): WireRequest {
  const connection = String(request.headers.connection ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);
  const headers: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || connection.includes(name)) continue;
    if (PLATFORM.has(name) && !(keepCookies && name === 'cookie')) continue;
    if (name.startsWith('x-stage-')) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      // The origin's own cookies, but not the visitor's sign-in (the platform's, not the app's).
      const kept = name === 'cookie' ? withoutVisitor(one) : one;
      if (kept) headers.push([name, kept]);
    }
  }
  headers.push(['x-stage-app', target.sid]);
  if (auth.kind === 'user' && auth.email) headers.push(['x-stage-user', auth.email]);
  const body = Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : null;
  return {
    method: request.method,
    url: `${target.origin}${target.rest.startsWith('/') ? '' : '/'}${target.rest}`,
    headers,
    body:
      body && request.method !== 'GET' && request.method !== 'HEAD' ? new Uint8Array(body) : null,
  };
}

const withoutVisitor = (cookies: string) =>
  cookies
    .split(';')
    .filter((pair) => pair.trim().split('=')[0] !== VISITOR_COOKIE)
    .join(';')
    .trim();

/** A cookie the backend sets on its own origin, host-only: any Domain attribute is dropped. */
const hostOnly = (cookie: string) =>
  cookie
    .split(';')
    .filter((part, i) => i === 0 || !/^\s*domain\s*=/i.test(part))
    .join(';');

/**
 * The backend's headers as sent back: only the allowed ones (ALLOWED, x-* but X_DENIED; a
 * location only relative or http(s)), with nosniff. On the platform's origin an HTML answer runs
 * sandboxed (an opaque origin) and no cookie is set; on the app's own origin (`own`) the app's
 * policy applies and its cookies are set there, host-only.
 */
export function responseHeaders(headers: Array<[string, string]>, own: { csp: string } | null) {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    const n = name.toLowerCase();
    const cookie = n === 'set-cookie' && own !== null;
    if (!cookie && !allowedHeader(n, value)) continue;
    const v = cookie ? hostOnly(value) : value;
    const had = out[n];
    out[n] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  out['content-security-policy'] = own?.csp ?? SANDBOXED_CSP;
  out['x-content-type-options'] = 'nosniff';
  return out;
}
