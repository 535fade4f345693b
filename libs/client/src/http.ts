import { request as undiciRequest } from 'undici';
import { ConnectionError, pathWithQuery, type Transport } from './transport.js';

export interface HttpTransportOptions {
  /** Sent with every request, e.g. { 'x-api-key': ... }. */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export function httpTransport(baseUrl: string, options: HttpTransportOptions = {}): Transport {
  const base = baseUrl.replace(/\/+$/, '');
  const timeout = options.timeoutMs ?? 30_000;
  return {
    async send({ method, path, query, body, signal }) {
      let response;
      try {
        response = await undiciRequest(`${base}${pathWithQuery(path, query)}`, {
          method,
          headers: {
            ...options.headers,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          headersTimeout: timeout,
          bodyTimeout: timeout,
          signal,
        });
      } catch (error) {
        throw new ConnectionError(base, error);
      }
      const text = await response.body.text();
      return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
    },
  };
}
