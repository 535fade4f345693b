import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, creatorOf, roleOf, type Identity } from '@platform/core';

/** What an unsubscribe link turns off: one recipient's category on one channel. */
export interface Unsubscribe {
  recipient: string;
  category: string;
  channel: string;
}

// The token is `<base64url JSON>.<base64url HMAC-SHA256>` under COMMUNICATION_UNSUBSCRIBE_SECRET
// (or a key derived from SESSION_SECRET). It never expires: change the secret to void them all.
const mac = (key: string, payload: string) =>
  createHmac('sha256', key).update(`unsubscribe.${payload}`).digest('base64url');

export function unsubscribeToken(key: string, what: Unsubscribe): string {
  const payload = Buffer.from(
    JSON.stringify({ r: what.recipient, c: what.category, ch: what.channel }),
  ).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/** The token's content, or undefined when it is malformed or not signed by `key`. */
export function readUnsubscribeToken(key: string, token: string): Unsubscribe | undefined {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const { r, c, ch } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if ([r, c, ch].every((v) => typeof v === 'string'))
      return { recipient: r, category: c, channel: ch };
  } catch {
    // falls through: not ours
  }
  return undefined;
}

/** The link a mail carries, or undefined when links cannot be made or the category is required. */
export function unsubscribeUrl(
  config: { unsubscribeKey?: string; publicUrl?: string; requiredCategories: string[] },
  what: Partial<Unsubscribe>,
): string | undefined {
  const { unsubscribeKey: key, publicUrl } = config;
  const { recipient, category, channel } = what;
  if (!key || !publicUrl || !recipient || !category || !channel) return undefined;
  if (config.requiredCategories.includes(category)) return undefined;
  const token = unsubscribeToken(key, { recipient, category, channel });
  return `${publicUrl}/api/v1/communication/unsubscribe?token=${token}`;
}

/**
 * Whose preferences a caller may read or set: anyone's with authentication off, for admins and
 * the platform's services; else only their own (403 naming who they are). `recipient` defaults
 * to the caller.
 */
export function recipientFor(
  identity: Identity,
  authOn: boolean,
  recipient: string | undefined,
): string {
  const role = roleOf(identity, authOn);
  const self = creatorOf(identity);
  if (role === 'admin' || !authOn) {
    if (recipient !== undefined) return recipient;
    if (self) return self;
    throw new ApiError('BAD_REQUEST', 'recipient is required');
  }
  if (!self) throw new ApiError('FORBIDDEN', 'Only a person has preferences and an inbox');
  if (recipient !== undefined && recipient.toLowerCase() !== self.toLowerCase())
    throw new ApiError(
      'FORBIDDEN',
      `${self} may not act for ${recipient}: a person reads and sets their own (admins anyone's)`,
    );
  return self;
}
