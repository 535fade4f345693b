import {
  badRequest,
  decryptSecret,
  deriveKey,
  encryptSecret,
  type AuthSettings,
} from '@platform/core';
import type { FastifyBaseLogger } from 'fastify';
import type { StageDb } from '../database.js';
import { sealedSecrets } from '../repositories/secrets.js';

/** A secret's name: like an environment variable, as the backend reads it (env.NAME). */
export const SECRET_NAME = '^[A-Z][A-Z0-9_]{0,63}$';

/** Shorter values are not redacted from log lines: they would garble every line. */
export const MIN_REDACTED_LENGTH = 4;

const keys = new WeakMap<AuthSettings, Buffer>();

/**
 * The key app secrets are sealed with (AES-256-GCM), derived from SESSION_SECRET; without it
 * (authentication off) secrets cannot be kept: `required` throws a 400 saying so.
 */
function keyOf(auth: AuthSettings, required: boolean): Buffer | null {
  if (!auth.sessionSecret) {
    if (!required) return null;
    throw badRequest(
      'App secrets are stored encrypted under a key derived from SESSION_SECRET, which is not set (authentication is off): set SESSION_SECRET (with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET) to keep secrets',
    );
  }
  let key = keys.get(auth);
  if (!key) keys.set(auth, (key = deriveKey(auth.sessionSecret, 'stage app secrets')));
  return key;
}

export const sealSecret = (auth: AuthSettings, value: string) =>
  encryptSecret(keyOf(auth, true)!, value);

/**
 * An app's secrets in plain text, for its backend's env (never answered, logged or stored so).
 * One that cannot be opened (SESSION_SECRET changed since it was set) is left out, and logged by
 * name: set it again.
 */
export async function openSecrets(
  db: StageDb,
  auth: AuthSettings,
  sid: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<Record<string, string>> {
  const key = keyOf(auth, false);
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
