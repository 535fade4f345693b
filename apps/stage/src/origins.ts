import type { FastifyRequest } from 'fastify';
import { ConfigError, envInt, type Env, type HostRoute, type Variable } from '@platform/core';

// Every preview and every published app is served from an origin of its own (issue 32): by
// default http://<label>.apps.localhost:<port> and http://<label>.preview.localhost:<port>
// (browsers resolve *.localhost to the loopback), where the label is the app's sid (or the
// session's id) in hex: ids are case-sensitive and host names are not, so the label must map
// back one to one. The gateway routes these hosts to /__apps/<label>/ and /__previews/<label>/.

export const ORIGIN_VARIABLES: readonly Variable[] = [
  {
    name: 'STAGE_APPS_DOMAIN',
    default: 'apps.localhost',
    description:
      'Published apps are served at <label>.<this domain> (a wildcard DNS entry and certificate in production, e.g. apps.example.com)',
  },
  {
    name: 'STAGE_PREVIEW_DOMAIN',
    default: 'preview.localhost',
    description:
      'Session previews are served at <label>.<this domain> (e.g. preview.example.com); must differ from STAGE_APPS_DOMAIN',
  },
  {
    name: 'PUBLIC_URL',
    default: '(none)',
    description:
      "The platform's own origin, where visitors of private apps sign in and the sandbox UI frames previews from; default http(s)://localhost:<the port a request came to>",
  },
  {
    name: 'STAGE_VISITOR_SESSION_MINUTES',
    default: '60',
    description:
      "How long a sign-in handed off to an app's (or preview's) origin lasts there before the visitor is sent through the platform again",
  },
];

const DOMAIN =
  /^(?=.{1,200}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function domain(env: Env, name: string, fallback: string): string {
  const value = (env[name] ?? fallback)
    .trim()
    .toLowerCase()
    .replace(/^\.+|\.+$/g, '');
  if (!DOMAIN.test(value)) throw new ConfigError(name, `must be a domain name, got "${env[name]}"`);
  return value;
}

export function originConfig(env: Env) {
  const appsDomain = domain(env, 'STAGE_APPS_DOMAIN', 'apps.localhost');
  const previewDomain = domain(env, 'STAGE_PREVIEW_DOMAIN', 'preview.localhost');
  for (const [name, value] of [['STAGE_APPS_DOMAIN', appsDomain], ['STAGE_PREVIEW_DOMAIN', previewDomain]]) // prettier-ignore
    if (!value.includes('.'))
      throw new ConfigError(name, `must be a subdomain (${value}.<name> would take every host under ${value}, the platform's own included), e.g. apps.${value}`); // prettier-ignore
  if (appsDomain === previewDomain || appsDomain.endsWith(`.${previewDomain}`) || previewDomain.endsWith(`.${appsDomain}`)) // prettier-ignore
    throw new ConfigError('STAGE_PREVIEW_DOMAIN', `must not overlap STAGE_APPS_DOMAIN (${appsDomain})`); // prettier-ignore
  const publicUrl = env.PUBLIC_URL?.trim() || undefined;
  if (publicUrl && !/^https?:\/\/[^/]+\/?$/.test(publicUrl))
    throw new ConfigError('PUBLIC_URL', `must be an http(s) origin without a path, got "${publicUrl}"`); // prettier-ignore
  const local = (domain: string) => domain === 'localhost' || domain.endsWith('.localhost');
  if (!publicUrl && !(local(appsDomain) && local(previewDomain)))
    throw new ConfigError('PUBLIC_URL', `must be set when apps are served at ${appsDomain} and ${previewDomain}: their visitors sign in there`); // prettier-ignore
  if (
    publicUrl &&
    [appsDomain, previewDomain].some((d) => new URL(publicUrl).hostname.endsWith(`.${d}`))
  )
    // prettier-ignore
    throw new ConfigError('PUBLIC_URL', `must not be under ${appsDomain} or ${previewDomain}`);
  return {
    appsDomain,
    previewDomain,
    publicUrl: publicUrl?.replace(/\/$/, ''),
    visitorMinutes: envInt(env, 'STAGE_VISITOR_SESSION_MINUTES', 60, { min: 1, max: 7 * 24 * 60 }),
  };
}

export type OriginConfig = ReturnType<typeof originConfig>;

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
