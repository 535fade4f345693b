import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, notFound, type Access, type AuthSettings } from '@platform/core';
import { originsFor } from '../domain/origins.js';
import { findAppBySid } from '../repositories/apps.js';
import { findSessionOwnership } from '../repositories/sessions.js';
import { handoffToken, isState, safePath, SIGNIN_PATH, type Audience } from '../domain/visitors.js';
import type { StageRoutes } from '../domain/state.js';
import { PageParams, SigninQuery } from '../schemas/pages.js';

// On the platform's origin, /app/<sid>/... and /preview/<id>/... only send the browser to the
// app's or preview's own origin (origins.ts), and /app/<sid>/__signin hands a signed-in person
// over to it (visitors.ts). Nothing of a session is served here.

/** The rest of the address after /<mount>/<key>, as the client sent it (still encoded). */
const rest = (request: FastifyRequest) => request.url.split('/').slice(3).join('/');

/** The redirects of the old addresses: public (they tell nothing the address does not). */
const moved = (resource: string) => ({
  schema: { hide: true, params: PageParams },
  config: { access: { resource, action: 'read', rule: 'public' } as Access },
});

/**
 * GET <key>/__signin?to=<path>&state=<the origin's>: the signed-in caller, handed to `origin` (a
 * one-minute token for that state, in one redirect); with authentication off, or without a state
 * (not started by the origin), straight there, where a hand-off starts if one is needed.
 */
async function handOff(
  request: FastifyRequest,
  reply: FastifyReply,
  auth: AuthSettings,
  audience: Audience | null,
  origin: string,
) {
  const to = safePath((request.query as { to?: string }).to);
  // Nobody to hand over: authentication off, or a public app (its visitors are anonymous).
  if (!auth.enabled || !audience) return reply.redirect(`${origin}${to}`, 302);
  const identity = request.identity;
  if (identity.kind !== 'user')
    throw new ApiError('FORBIDDEN', 'Only a person signs in to an app: API clients call /stage/<sid>/api/* with their key'); // prettier-ignore
  // Started by the origin (its state cookie): otherwise, from there.
  const { state } = request.query as { state?: string };
  if (!isState(state)) return reply.redirect(`${origin}${to}`, 302);
  const person = { email: identity.email, name: identity.name };
  const token = await handoffToken(auth, audience, person, { to, state });
  reply.header('referrer-policy', 'no-referrer').header('cache-control', 'no-store');
  return reply.redirect(`${origin}/${SIGNIN_PATH}?token=${encodeURIComponent(token)}`, 302);
}

/** `/preview/<session id>/...`: moved to the preview's own origin. */
export const previewRoutes: StageRoutes = async (app, ctx) => {
  const { db, config, auth } = ctx;
  // Signing in to a preview: the session's owners, collaborators, team and admins.
  const PREVIEW: Access = {
    resource: 'stage.session',
    action: 'read',
    rule: 'owner',
    owner: (request) => findSessionOwnership(db, (request.params as { key?: unknown }).key),
  };
  app.get(
    '/:key/__signin',
    {
      schema: { hide: true, params: PageParams, querystring: SigninQuery },
      config: { access: PREVIEW },
    },
    async (request, reply) => {
      const { key } = request.params;
      if (!(await findSessionOwnership(db, key))) throw notFound('Session', key);
      const origin = originsFor(request, config.origins).preview(key);
      return handOff(request, reply, auth, `preview:${key}`, origin);
    },
  );
  const redirect = async (request: FastifyRequest, reply: FastifyReply) => {
    const { key } = request.params as { key: string };
    const origin = originsFor(request, config.origins).preview(key);
    return reply.redirect(`${origin}/${rest(request)}`, 302);
  };
  app.get('/:key', moved('stage.preview'), redirect);
  app.get('/:key/*', moved('stage.preview'), redirect);
};

/** `/app/<sid>/...`: moved to the app's own origin (by sid: a name could be guessed). */
export const appPageRoutes: StageRoutes = async (app, ctx) => {
  const { db, config, auth } = ctx;
  // Signing in to an app: any signed-in person (a private app is the platform's people's).
  const SIGN_IN: Access = { resource: 'stage.app', action: 'read' };
  app.get(
    '/:key/__signin',
    {
      schema: { hide: true, params: PageParams, querystring: SigninQuery },
      config: { access: SIGN_IN },
    },
    async (request, reply) => {
      const found = await findAppBySid(db, request.params.key);
      if (!found) throw new ApiError('NOT_FOUND', `No app ${request.params.key}`);
      const origin = originsFor(request, config.origins).app(found.sid);
      const audience = found.visibility === 'public' ? null : (`app:${found.sid}` as const);
      return handOff(request, reply, auth, audience, origin);
    },
  );
  const redirect = async (request: FastifyRequest, reply: FastifyReply) => {
    const { key } = request.params as { key: string };
    const origin = originsFor(request, config.origins).app(key);
    return reply.redirect(`${origin}/${rest(request)}`, 302);
  };
  app.get('/:key', moved('stage.app'), redirect);
  app.get('/:key/*', moved('stage.app'), redirect);
};
