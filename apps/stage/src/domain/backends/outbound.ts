import { STATUS_CODES } from 'node:http';
import { Agent, request, type Dispatcher } from 'undici';
import {
  ApiError,
  checkedAddresses,
  guardedLookup,
  PrivateTargetError,
  UnresolvedTargetError,
  type ErrorCode,
} from '@platform/core';
import type { OpsConfig } from '../../config/ops.js';

// An app backend's fetch (globals.ts installFetch), performed here in the service: the isolate and
// its runtime have no network. Only http(s); hosts that resolve to a loopback, private,
// link-local or unspecified address are refused unless STAGE_BACKEND_FETCH_ALLOW names them,
// checked before connecting and again at connection time (guardedLookup: DNS rebinding), at every
// redirect; bounded in time and size. Errors name the host, never the path or query (which may
// hold a key), and the variable that decides.

const ALLOW = 'STAGE_BACKEND_FETCH_ALLOW';
const MAX_REDIRECTS = 20;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Never sent as the app gave them: the connection's own, and encodings we would not decode. */
const DROPPED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
  'expect',
  'accept-encoding',
]);
/** Dropped on a redirect to another origin, as browsers do. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

export interface FetchAnswer {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
  url: string;
  redirected: boolean;
}

interface Outgoing {
  url: URL;
  method: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
  redirect: 'follow' | 'manual' | 'error';
}

const fail = (code: ErrorCode, message: string) => new ApiError(code, message);

/** The isolate's arguments, checked: they are untrusted copies. */
function outgoing(input: unknown): Outgoing {
  const i = (input ?? {}) as Record<string, unknown>;
  let url: URL;
  try {
    url = new URL(String(i.url));
  } catch {
    throw fail('BAD_REQUEST', `fetch: ${String(i.url).slice(0, 100)} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw fail('BAD_REQUEST', `fetch ${url.host || url.href.slice(0, 100)}: only http and https URLs may be fetched, not ${url.protocol}`); // prettier-ignore
  if (url.username || url.password)
    throw fail('BAD_REQUEST', `fetch ${url.host}: a URL may not hold credentials (send an authorization header)`); // prettier-ignore
  const method = String(i.method ?? 'GET');
  if (!TOKEN.test(method) || ['CONNECT', 'TRACE', 'TRACK'].includes(method.toUpperCase()))
    throw fail('BAD_REQUEST', `fetch ${url.host}: the method ${method.slice(0, 20)} is not allowed`); // prettier-ignore
  const headers = Array.isArray(i.headers) ? i.headers : [];
  if (
    !headers.every(
      (h) => Array.isArray(h) && h.length === 2 && h.every((v) => typeof v === 'string'),
    )
  )
    // prettier-ignore
    throw fail('BAD_REQUEST', `fetch ${url.host}: malformed headers`);
  const body = i.body instanceof Uint8Array ? i.body : null;
  const redirect = i.redirect === 'manual' || i.redirect === 'error' ? i.redirect : 'follow';
  return { url, method, headers: headers as Array<[string, string]>, body, redirect };
}

/** The answer's headers as pairs the isolate's Headers accepts. */
function answerHeaders(raw: Record<string, string | string[] | undefined>) {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(raw))
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      if (TOKEN.test(name) && !/[\r\n\0]|[^\0-\xff]/.test(one)) pairs.push([name, one]);
  return pairs;
}

/** The backends' fetch of one instance (its connection pools): in its state, closed with it. */
export class Outbound {
  private readonly guarded = new Agent({
    connect: { lookup: guardedLookup({ allowPrivate: false, setting: ALLOW }) },
  });
  private readonly open = new Agent();

  constructor(private readonly config: OpsConfig) {}

  /** Closing the service: fetches under way fail (their requests are being stopped too). */
  close() {
    return Promise.all([this.guarded.destroy(), this.open.destroy()]);
  }

  private allowed(url: URL) {
    const host = url.hostname.toLowerCase();
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return this.config.fetchAllow.some((entry) => entry === host || entry === `${host}:${port}`);
  }

  private refused(url: URL) {
    const port = url.port ? `:${url.port}` : '';
    return fail('FORBIDDEN', `fetch ${url.host}: ${url.hostname} is a loopback, private, link-local or unspecified address, refused (add ${url.hostname}${port} to ${ALLOW} to allow it)`); // prettier-ignore
  }

  /** The dispatcher for `url`: the guarded one unless the host is allowed; checked first. */
  private async dispatcherFor(url: URL): Promise<Dispatcher> {
    if (this.allowed(url)) return this.open;
    try {
      await checkedAddresses(url.hostname, { allowPrivate: false, setting: ALLOW }, 'fetch');
    } catch (error) {
      if (error instanceof PrivateTargetError) throw this.refused(url);
      if (error instanceof UnresolvedTargetError)
        throw fail('BAD_GATEWAY', `fetch ${url.host}: ${url.hostname} could not be resolved`);
      throw error;
    }
    return this.guarded;
  }

  /** Performs one fetch of an app backend: see the top of this file. */
  async fetch(input: unknown): Promise<FetchAnswer> {
    const first = outgoing(input);
    const { fetchTimeoutMs: timeoutMs, fetchMaxBytes: maxBytes } = this.config;
    const signal = AbortSignal.timeout(timeoutMs);
    let { url, method, body } = first;
    let headers = first.headers.filter(([name]) => !DROPPED.has(name.toLowerCase()));
    try {
      for (let hops = 0; ; hops++) {
        const dispatcher = await this.dispatcherFor(url);
        const res = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers: headers.flat(),
          body: body ?? undefined,
          dispatcher,
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const location = res.headers.location;
        const to = typeof location === 'string' && [301, 302, 303, 307, 308].includes(res.statusCode) ? location : null; // prettier-ignore
        if (to === null || first.redirect === 'manual') {
          const bytes = await this.read(res, url, maxBytes);
          const { statusCode: status } = res;
          const statusText = STATUS_CODES[status] ?? '';
          return { status, statusText, headers: answerHeaders(res.headers), body: bytes, url: url.href, redirected: hops > 0 }; // prettier-ignore
        }
        await res.body.dump();
        if (first.redirect === 'error')
          throw fail('BAD_GATEWAY', `fetch ${url.host}: it redirected (${res.statusCode}), and redirect is error`); // prettier-ignore
        if (hops + 1 > MAX_REDIRECTS)
          throw fail('BAD_GATEWAY', `fetch ${url.host}: more than ${MAX_REDIRECTS} redirects`);
        const next = outgoing({ url: new URL(to, url).href, method, headers, redirect: 'follow' }).url; // prettier-ignore
        if (next.origin !== url.origin)
          headers = headers.filter(([name]) => !CREDENTIALS.includes(name.toLowerCase()));
        const toGet = res.statusCode === 303 ? method !== 'HEAD' : [301, 302].includes(res.statusCode) && method === 'POST'; // prettier-ignore
        if (toGet) {
          method = 'GET';
          body = null;
          headers = headers.filter(([name]) => !name.toLowerCase().startsWith('content-'));
        }
        url = next;
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (signal.aborted)
        throw fail('REQUEST_TIMEOUT', `fetch ${url.host}: no complete answer within ${timeoutMs} ms (STAGE_BACKEND_FETCH_TIMEOUT_MS)`); // prettier-ignore
      const e = error as { code?: string; cause?: { code?: string } };
      const code = e.code ?? e.cause?.code;
      if (code === 'EPRIVATEADDRESS' || e.cause?.code === 'EPRIVATEADDRESS')
        throw this.refused(url);
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
        throw fail('REQUEST_TIMEOUT', `fetch ${url.host}: no complete answer within ${timeoutMs} ms (STAGE_BACKEND_FETCH_TIMEOUT_MS)`); // prettier-ignore
      throw fail('BAD_GATEWAY', `fetch ${url.host}: it could not be reached (${code ?? 'connection failed'})`); // prettier-ignore
    }
  }

  /** The body, up to STAGE_BACKEND_FETCH_MAX_BYTES: a larger one is refused, its stream closed. */
  private async read(res: Dispatcher.ResponseData, url: URL, maxBytes: number) {
    const tooLarge = () => {
      res.body.on('error', () => undefined); // destroyed unread: an abort nobody waits for
      res.body.destroy();
      return fail('PAYLOAD_TOO_LARGE', `fetch ${url.host}: the response body is over ${maxBytes} bytes (STAGE_BACKEND_FETCH_MAX_BYTES)`); // prettier-ignore
    };
    if (Number(res.headers['content-length']) > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
    return new Uint8Array(Buffer.concat(chunks));
  }
}
