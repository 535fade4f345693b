import {
  call,
  ConnectionError,
  pathWithQuery,
  type ApiRequest,
  type ApiResponse,
  type Transport,
} from '@platform/client';
import { loadConfig, type Config } from './config.js';
import { CliError, EXIT, usageError } from './errors.js';
import { operation } from './operations.js';

export { operation, type Operation, type Param, type Schema } from './operations.js';

/** The header the platform reads an API key from (libs/core/src/auth: API_KEY_HEADER). */
export const API_KEY_HEADER = 'x-api-key';

/** How long a request may take (a large import, a slow report). */
const TIMEOUT_MS = 120_000;

/** The headers every request to the gateway carries: the API key, when there is one. */
export const authHeaders = (config: Config): Record<string, string> =>
  config.apiKey ? { [API_KEY_HEADER]: config.apiKey } : {};

/** The answer stopped coming: the gateway went away mid-answer (exit 5, as unreachable). */
export const connectionLost = (origin: string, error: unknown) =>
  new CliError(
    `The connection to ${origin} was lost before the answer was complete (${(error as Error)?.message ?? String(error)})`,
    EXIT.CONNECTION,
  );

/** An answer that is not the platform's envelope: PLATFORM_URL most likely names another server. */
export const notPlatform = (url: string, status: number, type: string | null) =>
  new CliError(
    `The answer from ${url} is not the platform's JSON (HTTP ${status}, ${type || 'no content type'}): ` +
      'does PLATFORM_URL (or the URL given to platform init) point at the platform gateway?',
  );

/** fetch; a request that never gets an answer is ConnectionError (exit 5). */
export async function send(url: string, init: RequestInit & { duplex?: 'half' }) {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), ...init });
  } catch (error) {
    throw new ConnectionError(new URL(url).origin, (error as Error).cause ?? error);
  }
}

/** The envelope of an answer, or a clear error when it is something else (an HTML page). */
export async function envelopeOf(response: Response, base: string): Promise<ApiResponse> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw connectionLost(new URL(base).origin, error);
  }
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object' || !('success' in body))
    throw notPlatform(base, response.status, response.headers.get('content-type'));
  return { status: response.status, body };
}

/** The client's transport over fetch: auth headers, and answers checked to be the platform's. */
function transport(config: Config, headers: Record<string, string> = {}): Transport {
  return {
    async send({ method, path, query, body }: ApiRequest) {
      const response = await send(`${config.url}${pathWithQuery(path, query)}`, {
        method,
        headers: {
          ...authHeaders(config),
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return envelopeOf(response, config.url);
    },
  };
}

export interface Args {
  path?: Record<string, string>;
  query?: ApiRequest['query'];
  body?: unknown;
  /** Header parameters of the operation (`idempotency-key`). */
  headers?: Record<string, string>;
}

/** `/x/{id}` with `{ id: 'a b' }` -> `/x/a%20b` */
export function fillPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw usageError(`Missing argument <${name}>`);
    return encodeURIComponent(value);
  });
}

/** Sends a request to the configured gateway: the data, or PlatformError / ConnectionError. */
export function request<T = unknown>(
  method: ApiRequest['method'],
  path: string,
  args: Omit<Args, 'path'> = {},
): Promise<T> {
  const config = loadConfig();
  return call<T>(transport(config, args.headers), {
    method,
    path,
    query: args.query,
    body: args.body,
  });
}

/** Calls an operation by its operationId. */
export function invoke<T = unknown>(id: string, args: Args = {}): Promise<T> {
  const op = operation(id);
  return request<T>(op.method, fillPath(op.path, args.path), args);
}

/**
 * Calls an operation whose body or answer is not JSON (a file's text, a CSV upload): the answer
 * when it is a success, the error envelope as PlatformError otherwise.
 */
export async function invokeRaw(
  id: string,
  args: Args & { raw?: { body: ReadableStream | string; type: string } } = {},
): Promise<Response> {
  const config = loadConfig();
  const op = operation(id);
  const response = await send(
    `${config.url}${pathWithQuery(fillPath(op.path, args.path), args.query)}`,
    {
      method: op.method,
      headers: {
        ...authHeaders(config),
        ...args.headers,
        ...(args.raw ? { 'content-type': args.raw.type } : {}),
      },
      body: args.raw?.body,
      ...(args.raw ? { duplex: 'half' as const } : {}),
    },
  );
  if (!response.ok) {
    const envelope = await envelopeOf(response, config.url);
    await call({ send: async () => envelope }, { method: op.method, path: op.path });
  }
  return response;
}
