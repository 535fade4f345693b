import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signToken, verifyToken, type AuthSettings } from '@platform/core';

// Signing in to an app's (or a preview's) own origin, which the platform's cookie never reaches:
// the app's origin keeps a random state in a cookie and sends the visitor to the platform
// (GET /app/<sid>/__signin?to=<path>&state=), where the person signs in as usual; the platform
// hands a one-minute token for that origin and that state back in one redirect
// (/__platform/signin?token=), which only the browser holding the state may use; the origin then
// keeps a visitor cookie of its own, host-only and HttpOnly, for STAGE_VISITOR_SESSION_MINUTES.
// Public apps have no visitors.

export const VISITOR_COOKIE = 'stage_visitor';
export const SIGNIN_PATH = '__platform/signin';
export const SIGNOUT_PATH = '__platform/signout';
const HANDOFF = 'token: stage sign-in hand-off';
const VISITOR = 'token: stage visitor';
const HANDOFF_SECONDS = 60;

/** A person signed in to an app's origin: what its backend is told (env.auth). */
export interface Visitor {
  email: string;
  name: string | null;
}

/** Whom a token is for: `app:<sid>` or `preview:<session id>`. */
export type Audience = `${'app' | 'preview'}:${string}`;

const secretOf = (auth: AuthSettings) => auth.sessionSecret as string;

/**
 * Where a hand-off may send the visitor back to: a path of the origin (resolved as a browser
 * would, so `/\t/evil.com` or `/\\evil.com` cannot become another site), percent-encoded.
 */
export function safePath(to: unknown): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.length > 2000) return '/';
  try {
    const url = new URL(to, 'http://origin.invalid');
    if (url.origin !== 'http://origin.invalid') return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

/** A hand-off's state: what ties its return to the browser that left (a cookie of the origin). */
export const STATE_COOKIE = 'stage_handoff';
const STATE = /^[A-Za-z0-9_-]{22,64}$/;

export const handoffToken = (
  auth: AuthSettings,
  audience: Audience,
  visitor: Visitor,
  { to, state }: { to: string; state: string },
) =>
  signToken(secretOf(auth), HANDOFF, audience, { ...visitor, to: safePath(to), state }, HANDOFF_SECONDS); // prettier-ignore

/** Whether `state` (a query parameter) may be one this service made. */
export const isState = (state: unknown): state is string =>
  typeof state === 'string' && STATE.test(state);

/**
 * The visitor and path of a hand-off token for this origin, coming back to the browser that
 * left it (its state cookie names the token's state: a link to someone else's token, or one
 * replayed elsewhere, is refused); null otherwise.
 */
export async function acceptHandoff(
  request: FastifyRequest,
  auth: AuthSettings,
  audience: Audience,
  token: unknown,
) {
  if (typeof token !== 'string' || token.length > 4096) return null;
  const state = request.cookies?.[STATE_COOKIE];
  if (!isState(state) || countOf(request, STATE_COOKIE) > 1) return null;
  const claims = await verifyToken(secretOf(auth), HANDOFF, audience, token);
  if (!claims || typeof claims.email !== 'string' || claims.state !== state) return null;
  const visitor: Visitor = {
    email: claims.email,
    name: typeof claims.name === 'string' ? claims.name : null,
  };
  return { visitor, to: safePath(claims.to) };
}

/** Whether browsers keep Secure cookies for `origin`: https, or a name under localhost. */
const secureContext = (origin: string) =>
  origin.startsWith('https:') || /\.localhost$/.test(new URL(origin).hostname);

/**
 * The visitor's cookie on `origin`, host-only. Where the browser allows Secure cookies (https, or
 * *.localhost), it is `SameSite=None; Partitioned`: a preview framed by the sandbox UI (another
 * site) keeps it, in a jar of that framing site alone; the origin's routes use it only for its
 * own requests and navigations (routes/content.ts). Elsewhere `SameSite=Lax`.
 */
export async function setVisitorCookie(
  reply: FastifyReply,
  auth: AuthSettings,
  audience: Audience,
  visitor: Visitor,
  { minutes, origin }: { minutes: number; origin: string },
) {
  const token = await signToken(secretOf(auth), VISITOR, audience, { ...visitor }, minutes * 60);
  reply.setCookie(VISITOR_COOKIE, token, cookieOptions(origin, minutes * 60));
  reply.clearCookie(STATE_COOKIE, cookieOptions(origin, 0));
}

/** Starts a hand-off on `origin`: its state, kept in a cookie there for five minutes. */
export function startHandoff(reply: FastifyReply, origin: string): string {
  const state = randomBytes(24).toString('base64url');
  reply.setCookie(STATE_COOKIE, state, cookieOptions(origin, 300));
  return state;
}

const cookieOptions = (origin: string, maxAge: number) => ({
  httpOnly: true,
  path: '/',
  maxAge,
  ...(secureContext(origin)
    ? { secure: true, sameSite: 'none' as const, partitioned: true }
    : { sameSite: 'lax' as const }),
});

export const clearVisitorCookie = (reply: FastifyReply) =>
  reply.clearCookie(VISITOR_COOKIE, { path: '/', httpOnly: true });

/** How many cookies of `name` the request carries (another origin of the site may have tossed one). */
const countOf = (request: FastifyRequest, name: string) =>
  String(request.headers.cookie ?? '')
    .split(';')
    .filter((pair) => pair.trim().startsWith(`${name}=`)).length;

/** The person signed in to this origin, from its visitor cookie; null when there is none. */
export async function visitorOf(
  request: FastifyRequest,
  auth: AuthSettings,
  audience: Audience,
): Promise<Visitor | null> {
  const token = request.cookies?.[VISITOR_COOKIE];
  if (!auth.enabled || !token) return null;
  // Two of them: one was planted by a sibling origin (Domain=<the apps domain>): trust neither.
  if (countOf(request, VISITOR_COOKIE) > 1) return null;
  const claims = await verifyToken(secretOf(auth), VISITOR, audience, token);
  if (!claims || typeof claims.email !== 'string') return null;
  return { email: claims.email, name: typeof claims.name === 'string' ? claims.name : null };
}
