import type { IncomingMessage } from 'node:http';

// Origins of their own (ARCHITECTURE: user content is never served from the platform's origin).
// A service may claim host names: a request whose Host is `<label>.<domain>` is routed, before
// anything else looks at it, to `<prefix>/<label><path>` of that service. Nothing else reaches
// those prefixes: a route under them that a request matched without coming through that label's
// host is 404, so what they serve can never run on the platform's own origin.

/** Requests to `<label>.<domain>` go to `<prefix>/<label>/...`. */
export interface HostRoute {
  /** Lower case, without a port: `apps.localhost`, `apps.example.com`. */
  domain: string;
  /** A path prefix of the service, reachable only this way: `/__apps`. */
  prefix: string;
}

/** One DNS label: what a service's labels are made of (lower case, digits, hyphens). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const CLAIMED = Symbol('platform.claimed-host');

/**
 * The host the client asked for, lower case and without its port: Host, or the first
 * X-Forwarded-Host when `forwarded` (a proxy the server trusts set it: the gateway in front of a
 * service, or a load balancer the gateway's TRUST_PROXY names).
 */
export function requestHost(headers: IncomingMessage['headers'], forwarded: boolean): string {
  const xfh = forwarded ? headers['x-forwarded-host'] : undefined;
  const raw = (typeof xfh === 'string' && xfh.split(',')[0].trim()) || headers.host;
  const host = (raw ?? '').toLowerCase();
  // [v6]:port, name:port, name
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
}

const under = (url: string, prefix: string) =>
  url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);

/**
 * Fastify's `rewriteUrl` for `routes`: a request to a claimed host goes under its prefix (kept
 * as it is when a proxy in front already put it there), and is marked with the label it was
 * routed for. Anything under a claimed domain is the service's, a name that is no label too
 * (`-`: it answers that nothing is there), never the platform's own pages.
 */
export function hostRewriter(routes: readonly HostRoute[], forwarded: boolean) {
  return (req: IncomingMessage): string => {
    const url = req.url ?? '/';
    const host = requestHost(req.headers, forwarded);
    for (const { domain, prefix } of routes) {
      if (host !== domain && !host.endsWith(`.${domain}`)) continue;
      const name = host.slice(0, -domain.length - 1);
      const label = LABEL.test(name) ? name : '-';
      (req as Marked)[CLAIMED] = { prefix, label };
      const own = `${prefix}/${label}`;
      return under(url, own) ? url : `${own}${url.startsWith('/') ? url : `/${url}`}`;
    }
    return url;
  };
}

type Marked = IncomingMessage & { [CLAIMED]?: { prefix: string; label: string } };

/**
 * Whether a request was routed to a claimed prefix without coming through its host: decided on
 * the route it matched (after the router decoded the path: `/%5F_apps/...` is `/__apps/...`),
 * and on the label it matched with, which must be the one its Host named.
 */
export function refusedHostRoute(
  routes: readonly HostRoute[],
  route: string | undefined,
  req: IncomingMessage,
  params: { label?: string; '*'?: string } | undefined,
): boolean {
  const claimed = route && routes.find(({ prefix }) => under(route, prefix));
  if (!claimed) return false;
  const mark = (req as Marked)[CLAIMED];
  // The service's own route names it `:label`; a proxy's (`<prefix>/*`) has it first in `*`.
  const { label = String(params?.['*'] ?? '').split('/')[0] } = params ?? {};
  return mark?.prefix !== claimed.prefix || mark.label !== label;
}
