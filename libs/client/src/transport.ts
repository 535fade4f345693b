export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | ReadonlyArray<string | number> | undefined>;
  body?: unknown;
  /** Aborts the request: the transport stops waiting and rejects (optional). */
  signal?: AbortSignal;
}

export interface ApiResponse {
  status: number;
  body: unknown;
}

/** How requests reach the services: HTTP to a gateway or service, or in-process via `inject`. */
export interface Transport {
  send(request: ApiRequest): Promise<ApiResponse>;
}

/** The platform answered with an error envelope. */
export class PlatformError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/** The gateway (or service) could not be reached at all. */
export class ConnectionError extends Error {
  constructor(baseUrl: string, cause: unknown) {
    super(`Cannot reach ${baseUrl}: ${(cause as Error).message ?? cause}`, { cause });
    this.name = 'ConnectionError';
  }
}

export function pathWithQuery(path: string, query: ApiRequest['query'] = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

interface Injectable {
  inject(options: {
    method: string;
    url: string;
    payload?: string;
    headers?: Record<string, string>;
    signal?: AbortSignal;
  }): Promise<{
    statusCode: number;
    body: string;
  }>;
}

/** In-process: the same requests, handed to a Fastify instance without a socket. */
export function injectTransport(app: Injectable, headers: Record<string, string> = {}): Transport {
  return {
    async send({ method, path, query, body, signal }) {
      const response = await app.inject({
        method,
        url: pathWithQuery(path, query),
        headers: {
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        payload: body === undefined ? undefined : JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
      return {
        status: response.statusCode,
        body: response.body ? JSON.parse(response.body) : undefined,
      };
    },
  };
}

type Envelope<T> =
  { success: true; data: T } | { success: false; error: { code: string; message: string } };

/** Sends a request and returns `data`, or throws PlatformError with the envelope's code and message. */
export async function call<T>(transport: Transport, request: ApiRequest): Promise<T> {
  const { status, body } = await transport.send(request);
  const envelope = body as Envelope<T> | undefined;
  if (envelope && typeof envelope === 'object' && 'success' in envelope) {
    if (envelope.success) return envelope.data;
    throw new PlatformError(envelope.error.code, envelope.error.message, status);
  }
  throw new PlatformError(
    'BAD_GATEWAY',
    `Unexpected response (HTTP ${status}) without the envelope`,
    status,
  );
}
