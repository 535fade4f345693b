import type { FastifyRequest } from 'fastify';
import { ApiError, SESSION_COOKIE, type Access } from '@platform/core';
import { authOf, wireRequest } from '../domain/backends/forward.js';
import type { StageRoutes } from '../domain/state.js';

/**
 * A person's browser sent this with the platform's cookie from another page than the platform's
 * own (another site's link or form; an app's page, when apps share the platform's site). The
 * backend would act for them without their knowing: refused. API clients send keys; people use
 * the app on its own origin.
 */
function crossSiteForAPerson(request: FastifyRequest) {
  if (request.identity.kind !== 'user' || !request.cookies?.[SESSION_COOKIE]) return false;
  const site = request.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

/** Reading from an app's backend is like reading its pages: any signed-in caller. */
const READ: Access = { resource: 'stage.backend', action: 'read' };
/** Anything else (POST, PUT, PATCH, DELETE, OPTIONS...): the members who use the app. */
const WRITE: Access = { resource: 'stage.backend', action: 'invoke' };
const READ_METHODS = ['GET', 'HEAD'];

/**
 * ANY /stage/:appSid/api and /stage/:appSid/api/* (mounted at /stage/:appSid/api): the published app's
 * backend (/app/api/index.ts) answers, in an isolate of the backend runtime (domain/backends),
 * with the request as sent minus the /stage/<sid>/api prefix. Signed-in callers only (viewers
 * for GET and HEAD, members otherwise); the caller is env.auth.
 */
export const backendRoutes: StageRoutes = async (app, ctx) => {
  const runner = ctx.state.backends;
  runner.attach(app);

  const handle = async (request: FastifyRequest, reply: Parameters<typeof runner.handle>[0]) => {
    const sid = (request.params as { appSid: string }).appSid;
    if (crossSiteForAPerson(request))
      throw new ApiError('FORBIDDEN', `Cross-site request refused: /stage/${sid}/api/* acts for a person only from the platform's own pages; open the app on its own origin, or call it with an API key`); // prettier-ignore
    const auth = authOf(request.identity);
    const at = request.url.indexOf('?');
    const path = at < 0 ? request.url : request.url.slice(0, at);
    const rest = `/${path.split('/').slice(4).join('/')}${at < 0 ? '' : request.url.slice(at)}`;
    const origin = `${request.protocol}://${request.host}`;
    return runner.handle(reply, sid, {
      request: () => wireRequest(request, { sid, origin, rest }, auth),
      auth,
      basePath: `/stage/${sid}/api`,
      ownOrigin: null,
    });
  };
  // Each route its own handler: the policy's record of a route's declaration is by handler.
  const writeMethods = app.supportedMethods.filter((m) => !READ_METHODS.includes(m));
  for (const url of ['/', '/*']) {
    app.route({
      method: READ_METHODS,
      url,
      schema: { hide: true },
      config: { access: READ },
      handler: (request, reply) => handle(request, reply),
    });
    app.route({
      method: writeMethods,
      url,
      schema: { hide: true },
      config: { access: WRITE },
      handler: (request, reply) => handle(request, reply),
    });
  }
};
