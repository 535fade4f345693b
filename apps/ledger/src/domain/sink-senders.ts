import { createHmac } from 'node:crypto';
import { connect as netConnect, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { connect as tlsConnect } from 'node:tls';
import { checkedAddresses, guardedLookup, type TargetPolicy } from '@platform/core';
import { Agent, fetch } from 'undici';
import type { EventRow, SignedHeadRow, SinkRow } from '../database.js';
import { toSignedHead } from '../schemas/signatures.js';
import { toAuditEvent } from '../schemas/events.js';
import { toOcsf } from './ocsf.js';

// How a batch of events (or signed chain heads) reaches a sink: a signed webhook, or syslog lines
// (RFC 5424) over TCP.

export const SEND_TIMEOUT_MS = 10_000;

export const formatEvent = (event: EventRow, format: SinkRow['format']) =>
  format === 'ocsf' ? toOcsf(event) : toAuditEvent(event);

/** `sha256=<hex>` of HMAC-SHA256 over `<timestamp>.<body>`: what a receiver recomputes. */
export const platformSignature = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** What one delivery carries: events in chain order, or signed chain heads. */
export interface SinkBatch {
  events: EventRow[];
  heads: SignedHeadRow[];
}

/** The delivery's id: its events' seqs, or the signing time of its last head. */
const deliveryId = (sink: SinkRow, { events, heads }: SinkBatch) =>
  events.length
    ? `${sink.id}:${events[0].seq}-${events.at(-1)?.seq}`
    : `${sink.id}:heads:${heads.at(-1)?.signed_at.toISOString()}`;

/** POSTs the batch; any answer but 2xx is a failure (retried). */
export async function sendWebhook(
  sink: SinkRow,
  secret: string,
  batch: SinkBatch,
  policy: TargetPolicy,
) {
  const url = new URL(sink.url as string);
  await checkedAddresses(url.hostname, policy, 'The sink');
  const body = JSON.stringify({
    sink: sink.name,
    format: sink.format,
    events: batch.events.map((e) => formatEvent(e, sink.format)),
    heads: batch.heads.map(toSignedHead),
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  // The connection checks the address it connects to again: a name that resolved to a public
  // address above and resolves to a private one now (DNS rebinding) is refused.
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(policy) } });
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-platform-timestamp': timestamp,
        'x-platform-signature': platformSignature(secret, timestamp, body),
        'x-platform-delivery': deliveryId(sink, batch),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      dispatcher,
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.status < 200 || res.status >= 300)
      throw new Error(`The webhook answered ${res.status}`);
  } finally {
    await dispatcher.close();
  }
}

/** RFC 5424 PARAM-VALUE: `"`, `\` and `]` escaped. */
const paramValue = (value: string) => value.replace(/["\\\]]/g, (c) => `\\${c}`);
/** RFC 5424 header fields: printable US-ASCII, no space, at most `max` characters, else `-`. */
const field = (value: string, max: number) =>
  value.replace(/[^\x21-\x7e]/g, '').slice(0, max) || '-';

/**
 * One event as an RFC 5424 message: facility 13 (log audit), severity 6 (informational), the
 * event's time, this host, app `platform-ledger`, MSGID `audit`, the chain's fields as
 * structured data (`audit@32473`, the documentation enterprise number of RFC 5612), and the
 * event as JSON after a BOM (the MSG is UTF-8).
 */
export function syslogMessage(event: EventRow, format: SinkRow['format']) {
  const pri = 13 * 8 + 6;
  const sd = `[audit@32473 id="${paramValue(event.id)}" seq="${event.seq}" hash="${event.hash}" prevHash="${event.prev_hash}"]`;
  const header = `<${pri}>1 ${event.timestamp.toISOString()} ${field(hostname(), 255)} platform-ledger ${field(String(process.pid), 128)} audit`;
  return `${header} ${sd} \uFEFF${JSON.stringify(formatEvent(event, format))}`;
}

/**
 * A signed chain head as an RFC 5424 message: as an event's, with MSGID `chain-head`, its fields
 * as structured data (`head@32473`) and the head as the API answers it (statement included).
 */
export function syslogHeadMessage(head: SignedHeadRow) {
  const pri = 13 * 8 + 6;
  const sd = `[head@32473 seq="${head.seq}" hash="${head.hash}" keyId="${head.key_id}" signature="${paramValue(head.signature)}"]`;
  const header = `<${pri}>1 ${head.signed_at.toISOString()} ${field(hostname(), 255)} platform-ledger ${field(String(process.pid), 128)} chain-head`;
  return `${header} ${sd} \uFEFF${JSON.stringify(toSignedHead(head))}`;
}

/** RFC 6587 octet counting (the framing RFC 5425 requires over TLS): `<length> <message>`. */
export const octetCounted = (message: string) => `${Buffer.byteLength(message)} ${message}`;

/**
 * Writes the batch on one connection and closes it: delivered once the receiver has taken the
 * whole stream and the connection ended without error (TCP carries no acknowledgement of its
 * own: a receiver that dies with unread data loses it, as with any syslog transport).
 */
export async function sendSyslog(sink: SinkRow, batch: SinkBatch, policy: TargetPolicy) {
  const host = sink.host as string;
  const [address] = await checkedAddresses(host, policy, 'The sink');
  const options = { host: address.address, port: sink.port as number };
  const socket: Socket = sink.tls
    ? tlsConnect({ ...options, servername: /^[\d.:]+$/.test(host) ? undefined : host })
    : netConnect(options);
  const messages = [
    ...batch.events.map((e) => syslogMessage(e, sink.format)),
    ...batch.heads.map(syslogHeadMessage),
  ];
  const payload = messages.map(octetCounted).join('');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => socket.destroy(new Error('The syslog receiver timed out')),
      SEND_TIMEOUT_MS,
    );
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once(sink.tls ? 'secureConnect' : 'connect', () => {
      socket.end(payload);
    });
    socket.once('close', (hadError) => {
      clearTimeout(timer);
      if (!hadError) resolve();
    });
    // The receiver's own closing after ours: half-closed sockets end here.
    socket.on('data', () => undefined);
    socket.on('end', () => socket.destroy());
  });
}
