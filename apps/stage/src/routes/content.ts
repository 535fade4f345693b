import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError, type Access } from '@platform/core';
import type { AppRow } from '../database/index.js';
import { wireRequest } from '../domain/backends/forward.js';
import {
  APPS_PREFIX,
  contentPolicy,
  idOfLabel,
  originsFor,
  PREVIEWS_PREFIX,
} from '../domain/origins.js';
import { appOfSession, findAppBySid } from '../repositories/apps.js';
import {
  acceptHandoff,
  clearVisitorCookie,
  safePath,
  setVisitorCookie,
  SIGNIN_PATH,
  startHandoff,
  SIGNOUT_PATH,
  visitorOf,
  type Audience,
  type Visitor,
} from '../domain/visitors.js';
import { notice, serve } from '../domain/serve.js';
import type { StageRoutes } from '../domain/state.js';

// An app's and a preview's own origin (origins.ts): the gateway routes <label>.<domain>/<path>
// here as /__apps/<label>/<path> (or /__previews/...). On it: the session's last render as pages
// and files, the app's backend at /api/*, and /__platform/signin|signout. Who may visit is
// decided here, by the app's visibility: a public app's visitors are anonymous; a private app
// (and every preview) asks for a sign-in through the platform (visitors.ts) when auth is on.

interface Site {
  kind: 'app' | 'preview';
  /** The sid, or the session id. */
  id: string;
  sessionId: string;
  title: string;
  /** The app it runs the backend of (a preview: the app its session serves, if any). */
  app: AppRow | undefined;
  isPublic: boolean;
}

const PAGE_METHODS = ['GET', 'HEAD'];

/** Who visits, as a backend sees it (env.auth). */
const visitorAuth = (visitor: Visitor | null) =>
  visitor
    ? { kind: 'user' as const, email: visitor.email, name: visitor.name }
    : { kind: 'anonymous' as const, email: null, name: null };

/**
 * Whether the request comes from the origin's own pages, or is a navigation to it (a link, the
 * address bar, a frame): by Sec-Fetch-Site and -Mode, else by Origin (older browsers).
 */
function ownRequest(request: FastifyRequest, origin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'same-origin' || site === 'none') return true;
  const navigates = request.headers['sec-fetch-mode'] === 'navigate' && PAGE_METHODS.includes(request.method); // prettier-ignore
  if (site !== undefined) return navigates;
  const from = request.headers.origin;
  return from === undefined ? PAGE_METHODS.includes(request.method) : from === origin;
}

function originRoutes(kind: 'app' | 'preview'): StageRoutes {
  const prefix = kind === 'app' ? APPS_PREFIX : PREVIEWS_PREFIX;
  return async (app, ctx) => {
    const { db, config, auth } = ctx;
    const runner = ctx.state.backends;
    runner.attach(app);

    async function siteOf(id: string): Promise<Site | undefined> {
      if (kind === 'app') {
        const found = await findAppBySid(db, id);
        if (!found) return undefined;
        const title = found.title ?? found.name;
        return { kind, id, sessionId: found.session_id, title, app: found, isPublic: found.visibility === 'public' }; // prettier-ignore
      }
      const served = await appOfSession(db, id);
      const app = served?.session_id === id ? served : undefined;
      return { kind, id, sessionId: id, title: `Preview of ${id}`, app, isPublic: false };
    }

    async function handle(request: FastifyRequest, reply: FastifyReply) {
      const { label, '*': path = '' } = request.params as { label: string; '*'?: string };
      // The path as the client sent it (still percent-encoded), after /__apps/<label>.
      const sent = request.url.slice(`${prefix}/${label}`.length) || '/';
      const origins = originsFor(request, config.origins);
      const id = idOfLabel(label);
      const site = id === null ? undefined : await siteOf(id);
      const csp = contentPolicy(origins.framers, site?.app?.connect_origins ?? []);
      reply.header('content-security-policy', csp);
      if (!site) return notice(reply, 404, `Nothing is published at this address`);
      const audience: Audience = `${kind}:${site.id}`;
      const origin = kind === 'app' ? origins.app(site.id) : origins.preview(site.id);

      if (path === SIGNIN_PATH) {
        const accepted = auth.enabled && !site.isPublic && (await acceptHandoff(request, auth, audience, (request.query as { token?: unknown }).token)); // prettier-ignore
        if (!accepted) return notice(reply, 400, 'This sign-in link is not valid or has expired: open the page again'); // prettier-ignore
        await setVisitorCookie(reply, auth, audience, accepted.visitor, { minutes: config.origins.visitorMinutes, origin }); // prettier-ignore
        reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
        return reply.redirect(accepted.to, 302);
      }
      if (path === SIGNOUT_PATH) {
        clearVisitorCookie(reply);
        return notice(reply, 200, 'Signed out of this app');
      }

      // A public app has no visitors; a private one's is taken only from its own pages' requests
      // and from navigations (its siblings on the same site could send its cookie otherwise).
      const visitor = site.isPublic || !ownRequest(request, origin) ? null : await visitorOf(request, auth, audience); // prettier-ignore
      const isApi = path === 'api' || path.startsWith('api/');
      if (auth.enabled && !site.isPublic && !visitor) {
        if (PAGE_METHODS.includes(request.method) && !isApi) {
          const to = encodeURIComponent(safePath(sent));
          const start = kind === 'app' ? `app/${site.id}` : `preview/${site.id}`;
          const state = startHandoff(reply, origin);
          return reply.redirect(`${origins.platform}/${start}/__signin?to=${to}&state=${state}`, 302); // prettier-ignore
        }
        return sendError(reply, 'UNAUTHORIZED', `Sign in first: open ${origin}/ in the browser, which signs you in through the platform`); // prettier-ignore
      }
      if (isApi) {
        if (!site.app)
          return sendError(reply, 'NOT_FOUND', `Session ${site.id} serves no app: publish it to run its backend`); // prettier-ignore
        const env = visitorAuth(visitor);
        // After /api, as sent (`/api/a%3Fb` is the path /a%3Fb, not /a?b).
        const after = sent.slice('/api'.length);
        const rest = after.startsWith('/') ? after : `/${after}`;
        return runner.handle(reply, site.app.sid, {
          request: () => wireRequest(request, { sid: site.app!.sid, origin, rest }, env, true),
          auth: env,
          basePath: '/api',
          ownOrigin: { csp },
        });
      }
      if (!PAGE_METHODS.includes(request.method))
        return sendError(reply, 'BAD_REQUEST', `${request.method} /${path}: pages and files are read with GET; the app's backend is at /api`, 405); // prettier-ignore
      return serve(db, reply, site.sessionId, path, site.title);
    }

    // Public as declared: the handler asks for the visitor's sign-in by the app's visibility.
    const access: Access = { resource: kind === 'app' ? 'stage.app' : 'stage.preview', action: 'read', rule: 'public' }; // prettier-ignore
    const invoke: Access = { ...access, action: 'invoke' };
    for (const url of ['/:label', '/:label/*']) {
      app.route({ method: PAGE_METHODS, url, schema: { hide: true }, config: { access }, handler: handle }); // prettier-ignore
      const others = app.supportedMethods.filter((m) => !PAGE_METHODS.includes(m));
      app.route({ method: others, url, schema: { hide: true }, config: { access: invoke }, handler: handle }); // prettier-ignore
    }
  };
}

export const appOriginRoutes = originRoutes('app');
export const previewOriginRoutes = originRoutes('preview');
