import {
  badRequest,
  decryptSecret,
  deriveKey,
  encryptSecret,
  type AuthSettings,
} from '@platform/core';
import type { FastifyBaseLogger } from 'fastify';
import type { StageDb } from '../../database/index.js';
import { sealedSecrets } from '../../repositories/secrets.js';

/** A secret's name: like an environment variable, as the backend reads it (env.NAME). */
export const SECRET_NAME = '^[A-Z][A-Z0-9_]{0,63}$';

/** Shorter values are not redacted from log lines: they would garble every line. */
export const MIN_REDACTED_LENGTH = 4;

/**
 * The key app secrets are sealed with (AES-256-GCM), derived from SESSION_SECRET once per
 * instance (its state); null without it (authentication off): secrets cannot be kept then.
 */
export const secretKey = (auth: AuthSettings): Buffer | null =>
  auth.sessionSecret ? deriveKey(auth.sessionSecret, 'stage app secrets') : null;

/** A value sealed with the key; without one, a 400 saying how to have one. */
export function sealSecret(key: Buffer | null, value: string) {
  if (!key)
    throw badRequest(
      'App secrets are stored encrypted under a key derived from SESSION_SECRET, which is not set (authentication is off): set SESSION_SECRET (with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET) to keep secrets',
    );
  return encryptSecret(key, value);
}

/**
 * An app's secrets in plain text, for its backend's env (never answered, logged or stored so).
 * One that cannot be opened (SESSION_SECRET changed since it was set) is left out, and logged by
 * name: set it again.
 */
export async function openSecrets(
  db: StageDb,
  key: Buffer | null,
  sid: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<Record<string, string>> {
  if (!key) return {};
  const secrets: Record<string, string> = {};
  for (const { name, value } of await sealedSecrets(db, sid)) {
    try {
      secrets[name] = decryptSecret(key, value);
    } catch {
      log.warn({ app: sid, secret: name }, 'app secret cannot be opened (SESSION_SECRET changed?)');
    }
  }
  return secrets;
}

/** Replaces every secret value (of MIN_REDACTED_LENGTH characters or more) by [secret NAME]. */
export function redactor(secrets: Record<string, string>): (text: string) => string {
  const known = Object.entries(secrets)
    .filter(([, value]) => value.length >= MIN_REDACTED_LENGTH)
    .sort((a, b) => b[1].length - a[1].length);
  if (known.length === 0) return (text) => text;
  return (text) =>
    known.reduce((out, [name, value]) => out.split(value).join(`[secret ${name}]`), text);
}
