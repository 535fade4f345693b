import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import LZString from 'lz-string';
import { ApiError, badRequest, MAX_JSON_DEPTH, MiB, nestedTooDeep } from '@platform/core';

/** The largest body the compatible routes accept as sent (compressed or not). */
export const MAX_SENT_BYTES = 5 * MiB;
/** The largest body once decompressed and decoded: a gzip bomb stops here. */
export const MAX_DECODED_BYTES = 20 * MiB;
/** The most events one request may carry (posthog-node halves its batch on a 413). */
export const MAX_REQUEST_EVENTS = 1000;

/** How a body came: its headers and the `compression` the URL named (PostHog). */
export interface BodyCoding {
  contentType?: string;
  contentEncoding?: string;
  compression?: string;
}

const isGzip = (raw: Buffer) => raw.length >= 2 && raw[0] === 0x1f && raw[1] === 0x8b;

function gunzip(raw: Buffer): Buffer {
  try {
    return gunzipSync(raw, { maxOutputLength: MAX_DECODED_BYTES });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new ApiError(
        'PAYLOAD_TOO_LARGE',
        `The body is more than ${MAX_DECODED_BYTES} bytes (20 MiB) once decompressed`,
      );
    throw badRequest('The body is not valid gzip (Content-Encoding: gzip or compression=gzip-js)');
  }
}

function fromBase64(text: string): string {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(trimmed))
    throw badRequest('The body is not valid base64 (compression=base64)');
  return Buffer.from(trimmed, 'base64').toString('utf8');
}

function fromLz64(text: string): string {
  let decoded: string | null = null;
  try {
    decoded = LZString.decompressFromBase64(text.trim());
  } catch {
    decoded = null;
  }
  if (!decoded) throw badRequest('The body is not valid lz-string base64 (compression=lz64)');
  return decoded;
}

// PostgreSQL's jsonb and text refuse the NUL character and lone surrogates: U+FFFD instead, as
// PostHog does.
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

const MAY_NEED_CLEANING = /\\u[dD][89a-fA-F]|[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\ufffd');

/** Lone surrogates as U+FFFD, in keys and values alike. */
function clean(value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value);
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [wellFormed(k), clean(v)]),
    );
  return value;
}

/** JSON text as a value; a 400 naming what was expected when it is not JSON. */
export function parseJson(text: string): unknown {
  if (text.length > MAX_DECODED_BYTES)
    throw new ApiError('PAYLOAD_TOO_LARGE', `The body is more than ${MAX_DECODED_BYTES} bytes`);
  if (nestedTooDeep(text)) throw badRequest(`The body nests deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text.replace(NUL_ESCAPE, '$1\\ufffd').replace(/\0/g, '\ufffd'));
  } catch {
    throw badRequest('The body is not valid JSON (once decompressed and decoded)');
  }
  // Lone surrogates (escaped, or in lz-string's output) are refused by PostgreSQL too.
  return MAY_NEED_CLEANING.test(text) ? clean(value) : value;
}

function decodeText(text: string, compression: string | undefined): unknown {
  if (compression === 'lz64') return parseJson(fromLz64(text));
  if (compression === 'base64') return parseJson(fromBase64(text));
  // posthog-js's base64 form bodies say so in the URL, older ones not always.
  const trimmed = text.trim();
  if (/^[A-Za-z0-9+/_-]{4,}={0,2}$/.test(trimmed) && !/^(true|false|null|\d+)$/.test(trimmed))
    return parseJson(fromBase64(trimmed));
  return parseJson(text);
}

/**
 * A body as PostHog's and Segment's libraries send it, as a value: gzip (`Content-Encoding:
 * gzip`, or posthog-js's `text/plain` gzip, known by its magic bytes), a form with `data=` (plain,
 * base64 or lz-string base64: `compression=base64|lz64`, in the URL or the form), or JSON.
 */
export function decodeBody(raw: Buffer, coding: BodyCoding): unknown {
  if (raw.length === 0) throw badRequest('The body is empty: send the event or the batch');
  const gzipped = /gzip/i.test(coding.contentEncoding ?? '') || isGzip(raw);
  const bytes = gzipped ? gunzip(raw) : raw;
  const text = bytes.toString('utf8');
  if (/^application\/x-www-form-urlencoded/i.test(coding.contentType ?? '')) {
    const form = new URLSearchParams(text);
    const data = form.get('data');
    if (data === null) throw badRequest('The form body has no data field (data=<the events>)');
    return decodeText(data, form.get('compression') ?? coding.compression);
  }
  if (gzipped || coding.compression === 'gzip-js' || coding.compression === 'gzip')
    return parseJson(text);
  return decodeText(text, coding.compression);
}

const STORED_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The stored id of an event a client named (`uuid`, `messageId`): as sent when it fits the
 * platform's ids, else a digest of it, so that a retry is recognised either way.
 */
export function storedId(clientId: string): string {
  if (STORED_ID.test(clientId)) return clientId;
  return `h_${createHash('sha256').update(clientId).digest('base64url').slice(0, 40)}`;
}
