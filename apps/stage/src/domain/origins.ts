import type { FastifyRequest } from 'fastify';
import type { HostRoute } from '@platform/core';
import type { OriginConfig } from '../config/origins.js';

// Every preview and every published app is served from an origin of its own (issue 32; the
// settings in src/config/origins.ts): the label is the app's sid (or the session's id) in hex. The
// gateway routes these hosts to /__apps/<label>/ and /__previews/<label>/.

export const APPS_PREFIX = '/__apps';
export const PREVIEWS_PREFIX = '/__previews';

/** The hosts the sandbox claims: the gateway (and the service standalone) route them here. */
export const originHosts = (config: OriginConfig): HostRoute[] => [
  { domain: config.appsDomain, prefix: APPS_PREFIX },
  { domain: config.previewDomain, prefix: PREVIEWS_PREFIX },
];

/** An id's label: its bytes in hex (one to one, whatever the case of the id). */
export const labelOf = (id: string) => Buffer.from(id, 'utf8').toString('hex');

/** The id a label stands for; null when it is not one (odd length, not hex, too long). */
export function idOfLabel(label: string): string | null {
  if (!/^(?:[0-9a-f]{2}){1,31}$/.test(label)) return null;
  const id = Buffer.from(label, 'hex').toString('utf8');
  return /^[A-Za-z0-9_-]+$/.test(id) ? id : null;
}

const first = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0].trim() || undefined;

/**
 * The scheme and port the client used, as the gateway forwards them (x-forwarded-proto and
 * -host, which it sets itself) or as this server was reached.
 */
function reached(request: FastifyRequest): { scheme: string; port: string } {
  const scheme = first(request.headers['x-forwarded-proto']) ?? request.protocol;
  const host = first(request.headers['x-forwarded-host']) ?? request.headers.host ?? '';
  const port = /:(\d+)$/.exec(host)?.[1];
  const standard = (scheme === 'https' && port === '443') || (scheme === 'http' && port === '80');
  return {
    scheme: scheme === 'https' ? 'https' : 'http',
    port: port && !standard ? `:${port}` : '',
  };
}

/** Origins as the client that sent `request` reaches them. */
export function originsFor(request: FastifyRequest, config: OriginConfig) {
  const { scheme, port } = reached(request);
  return {
    app: (sid: string) => `${scheme}://${labelOf(sid)}.${config.appsDomain}${port}`,
    preview: (sessionId: string) => `${scheme}://${labelOf(sessionId)}.${config.previewDomain}${port}`, // prettier-ignore
    /** The platform's own origin: PUBLIC_URL, else localhost on the port the client used. */
    platform: config.publicUrl ?? `${scheme}://localhost${port}`,
    /** Who may frame the content (the sandbox UI): PUBLIC_URL, else the loopback on any port. */
    framers: config.publicUrl ?? 'http://localhost:* http://127.0.0.1:*',
  };
}

/**
 * The policy of every page, file and backend answer on an app's or a preview's origin: its own
 * scripts, styles, images and fonts; fetches and form posts to itself (and the origins the app
 * lists); framed only by itself and the platform (the sandbox UI shows previews in a frame).
 */
export function contentPolicy(framers: string, connect: readonly string[] = []) {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connect].join(' '),
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors 'self' ${framers}`,
  ].join('; ');
}
