import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '@platform/core';
import type { PassportConfig } from '../config.js';

/** The cookie binding a sign-in under way to the browser that started it. */
export const LOGIN_COOKIE = 'platform_login';
export const LOGIN_TTL_MS = 10 * 60_000;

/**
 * `returnTo` when it is a path of this origin: one leading `/`, not `//`, no backslash and no
 * control character (browsers drop tabs and newlines, so `/\t/evil.com` would be `//evil.com`).
 * Anything else is `/`. The path, query and fragment come back percent-encoded (through URL).
 */
export function safeReturnTo(value: string | undefined): string {
  if (value === undefined || !value.startsWith('/') || value.startsWith('//')) return '/';
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return '/';
  // Percent-encoded as a Location header needs it (`/€` would fail with ERR_INVALID_CHAR).
  const url = new URL(value, 'http://x');
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments are resolved: `/.//evil.com` must not become `//evil.com`.
  if (url.origin !== 'http://x' || path.startsWith('//')) return '/';
  return path;
}

/** The origin people reach the platform at: PUBLIC_URL, else the request's own. */
export const originOf = (request: FastifyRequest, config: PassportConfig) =>
  config.publicUrl ?? `${request.protocol}://${request.host}`;

const secure = (request: FastifyRequest, config: PassportConfig) =>
  (config.publicUrl ?? `${request.protocol}:`).startsWith('https:');

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: PassportConfig,
  token: string,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: secure(request, config),
    maxAge: Math.floor(config.sessionMaxAgeMs / 1000),
  });
}

export const clearSessionCookie = (reply: FastifyReply) =>
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });

export function setLoginCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: PassportConfig,
  prefix: string,
  state: string,
) {
  reply.setCookie(LOGIN_COOKIE, state, {
    httpOnly: true,
    sameSite: 'lax',
    path: prefix,
    secure: secure(request, config),
    maxAge: LOGIN_TTL_MS / 1000,
  });
}

export const clearLoginCookie = (reply: FastifyReply, prefix: string) =>
  reply.clearCookie(LOGIN_COOKIE, { path: prefix, httpOnly: true, sameSite: 'lax' });
