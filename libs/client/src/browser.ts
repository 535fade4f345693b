/**
 * The client for web pages: the same typed client over the browser's fetch, on the page's own
 * origin (the session cookie goes along). Nothing here reaches for Node.
 */
import { ConnectionError, pathWithQuery, type Transport } from './transport.js';

export {
  createClient,
  type PlatformClient,
  type DataOf,
  type ArgsOf,
  type OperationId,
} from './client.js';
export { PlatformError, ConnectionError, type Transport } from './transport.js';
export { ACCESS } from './generated/index.js';

export function fetchTransport(baseUrl = ''): Transport {
  return {
    async send({ method, path, query, body, signal }) {
      let response: Response;
      try {
        response = await fetch(`${baseUrl}${pathWithQuery(path, query)}`, {
          method,
          credentials: 'same-origin',
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
        });
      } catch (error) {
        throw new ConnectionError(baseUrl || 'the platform', error);
      }
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed };
    },
  };
}
