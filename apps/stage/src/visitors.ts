import type { FastifyReply, FastifyRequest } from 'fastify';
import { signToken, verifyToken, type AuthSettings } from '@platform/core';

// Signing in to an app's (or a preview's) own origin, which the platform's cookie never reaches:
// the app's origin sends the visitor to the platform (GET /app/<sid>/__signin?to=<path>), where
// the person signs in as usual; the platform hands a one-minute token for that origin alone back
// in one redirect (/__platform/signin?token=), and the origin keeps a visitor cookie of its own,
// host-only and HttpOnly, for STAGE_VISITOR_SESSION_MINUTES. Public apps have no visitors.

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

export const handoffToken = (
  auth: AuthSettings,
  audience: Audience,
  visitor: Visitor,
  to: string,
) =>
  signToken(secretOf(auth), HANDOFF, audience, { ...visitor, to: safePath(to) }, HANDOFF_SECONDS);

/** The visitor and path of a hand-off token for this origin; null when it is not one. */
export async function acceptHandoff(auth: AuthSettings, audience: Audience, token: unknown) {
  if (typeof token !== 'string' || token.length > 4096) return null;
  const claims = await verifyToken(secretOf(auth), HANDOFF, audience, token);
  if (!claims || typeof claims.email !== 'string') return null;
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
  const secure = secureContext(origin);
  reply.setCookie(VISITOR_COOKIE, token, {
    httpOnly: true,
    path: '/',
    maxAge: minutes * 60,
    ...(secure ? { secure: true, sameSite: 'none', partitioned: true } : { sameSite: 'lax' }),
  });
}

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
