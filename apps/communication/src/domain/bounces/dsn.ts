import type { PassThrough, Readable, Transform } from 'node:stream';
import { text } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { Splitter } from '@zone-eu/mailsplit';
import type { SplitterChunk } from '@zone-eu/mailsplit/lib/types';
import libmime from 'libmime';

/** What a DSN says of one recipient (RFC 3464 per-recipient fields). */
export interface RecipientReport {
  /** Final-Recipient's address (its `rfc822;` type left out). */
  finalRecipient: string | null;
  /** Original-Recipient's address: what was sent to, when the reporting system kept it. */
  originalRecipient: string | null;
  /** failed, delayed, delivered, relayed or expanded. */
  action: string;
  /** The enhanced status code (RFC 3463), e.g. 5.1.1. */
  status: string | null;
  diagnostic: string | null;
}

/** Bytes of the delivery-status part read at most (a report of many recipients is cut there). */
const MAX_STATUS_BYTES = 64 * 1024;

const field = (headers: Record<string, string[]>, name: string) => {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? null : first.replace(/\s+/g, ' ').trim();
};

/** `rfc822; ann@example.com` -> `ann@example.com` (other address types as written). */
const addressOf = (value: string | null) =>
  value === null
    ? null
    : value
        .replace(/^\s*rfc822\s*;\s*/i, '')
        .replace(/^<(.*)>$/, '$1')
        .trim();

/**
 * The per-recipient reports of a mail's `message/delivery-status` part (RFC 3464), read as the
 * mail streams in (MIME split by mailsplit, fields by libmime; nothing else kept), or null when
 * the mail has no such part (an auto-reply, a non-standard bounce).
 */
export async function readDeliveryStatus(mail: Readable): Promise<RecipientReport[] | null> {
  const splitter = new Splitter();
  interface Part {
    node: { getDecoder(): Transform | PassThrough };
    chunks: Buffer[];
    bytes: number;
  }
  const parts: Part[] = [];
  let reading: Part | null = null;
  splitter.on('data', (chunk: SplitterChunk) => {
    if (chunk.type === 'node') {
      reading =
        parts.length === 0 && chunk.contentType === 'message/delivery-status'
          ? { node: chunk, chunks: [], bytes: 0 }
          : null;
      if (reading) parts.push(reading);
    } else if (chunk.type === 'body' && reading && reading.bytes < MAX_STATUS_BYTES) {
      reading.chunks.push(chunk.value);
      reading.bytes += chunk.value.length;
    }
  });
  await pipeline(mail, splitter);
  const [part] = parts;
  if (!part) return null;
  const decoder = part.node.getDecoder();
  decoder.end(Buffer.concat(part.chunks));
  const status = await text(decoder);
  // Blocks of header-like fields separated by blank lines: the per-message one first.
  const blocks = status.split(/\r?\n[ \t]*\r?\n/).filter((b) => b.trim() !== '');
  return blocks.slice(1).flatMap((block) => {
    const headers = libmime.decodeHeaders(block.replace(/^\s*\r?\n/, ''));
    const action = field(headers, 'action')?.toLowerCase();
    if (!action) return [];
    return [
      {
        finalRecipient: addressOf(field(headers, 'final-recipient')),
        originalRecipient: addressOf(field(headers, 'original-recipient')),
        action: action.split(/[\s(]/)[0],
        status: /^[245]\.\d{1,3}\.\d{1,3}/.exec(field(headers, 'status') ?? '')?.[0] ?? null,
        diagnostic: field(headers, 'diagnostic-code'),
      },
    ];
  });
}
