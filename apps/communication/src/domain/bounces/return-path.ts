import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The envelope sender (Return-Path) of a delivery's mails when COMMUNICATION_BOUNCE_ADDRESS is
 * set (VERP): `<local>+<hex of the delivery id>.<tag>@<domain>`, the tag the first 16 hex digits
 * of HMAC-SHA256(COMMUNICATION_EVENTS_SECRET, the delivery id). A DSN comes back to that address,
 * so it names its delivery; nobody without the secret can name one. Hex only: a mail system that
 * changes the case of local parts changes nothing.
 */
export interface BounceAddress {
  local: string;
  domain: string;
  /** COMMUNICATION_EVENTS_SECRET. */
  key: string;
}

const TAG_LENGTH = 16;

const tagOf = (address: BounceAddress, deliveryId: string) =>
  createHmac('sha256', address.key)
    .update(`communication-bounce:${deliveryId}`)
    .digest('hex')
    .slice(0, TAG_LENGTH);

/** Splits `local@domain`; the address is checked when the configuration is read. */
export function parseBounceAddress(address: string, key: string): BounceAddress {
  const at = address.lastIndexOf('@');
  return { local: address.slice(0, at), domain: address.slice(at + 1).toLowerCase(), key };
}

/** The longest local part that leaves room for a delivery id (`dl_` and 8 characters) and a tag. */
export const MAX_BOUNCE_LOCAL = 64 - 1 - 2 * 11 - 1 - TAG_LENGTH;

/** The envelope sender of `deliveryId`'s mails. */
export function returnPathOf(address: BounceAddress, deliveryId: string): string {
  const id = Buffer.from(deliveryId, 'utf8').toString('hex');
  return `${address.local}+${id}.${tagOf(address, deliveryId)}@${address.domain}`;
}

/** The delivery a recipient address of a DSN names, or null when it names none (or is forged). */
export function deliveryOfReturnPath(address: BounceAddress, recipient: string): string | null {
  const at = recipient.lastIndexOf('@');
  if (at < 0 || recipient.slice(at + 1).toLowerCase() !== address.domain) return null;
  const local = recipient.slice(0, at);
  const prefix = `${address.local}+`;
  if (local.slice(0, prefix.length).toLowerCase() !== prefix.toLowerCase()) return null;
  const match = /^([0-9a-f]{2,64})\.([0-9a-f]{16})$/.exec(local.slice(prefix.length).toLowerCase());
  if (!match || match[1].length % 2 !== 0) return null;
  const deliveryId = Buffer.from(match[1], 'hex').toString('utf8');
  const expected = Buffer.from(tagOf(address, deliveryId));
  return timingSafeEqual(expected, Buffer.from(match[2])) ? deliveryId : null;
}
