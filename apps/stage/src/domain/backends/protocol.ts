// The messages between the stage service (the supervisor) and the backend runtime (child.ts), a
// child process running the isolates. Bodies travel as bytes (fork's advanced serialization).

/** A request as it crosses into an isolate: plain data. */
export interface WireRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
}

export interface WireResponse {
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

/** What the handler's `env` holds: no host objects. */
export interface BackendEnv {
  auth: { kind: string; email: string | null; name: string | null };
  app: { sid: string; name: string; config: Record<string, unknown>; basePath: string };
  /** The app's secrets, `env.<NAME>` in the handler (never overriding auth or app). */
  secrets?: Record<string, string>;
}

export const LOG_LEVELS = ['debug', 'info', 'log', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A console.* line of an isolate (log-book.ts): when (epoch ms), its level and text, and whether
 * it is the request's own (false: logged while several or no request ran, so not attributable).
 */
export interface LogLine {
  at: number;
  level: LogLevel;
  message: string;
  own: boolean;
}

/** Why a request failed in the runtime; each has its status and header value (routes.ts). */
export type FailureKind =
  | 'timeout'
  | 'memory'
  | 'threw'
  | 'boot'
  | 'bad-export'
  | 'bad-response'
  | 'too-large'
  | 'recycled'
  | 'crashed';

export interface Failure {
  kind: FailureKind;
  message: string;
  /** Seconds after which to try again (the Retry-After header of a 503). */
  retryAfter?: number;
}

/** The limits the runtime enforces, from backendConfig. */
export interface RuntimeLimits {
  timeoutMs: number;
  wallMs: number;
  memoryMb: number;
  maxResponseBytes: number;
  maxIsolates: number;
  /** Largest arguments of one virtual-module call, in bytes of JSON (checked in the runtime). */
  maxCallBytes: number;
  /** console.* lines: the longest kept, and how many of one request (log-book.ts). */
  logLineBytes: number;
  logLinesPerRequest: number;
}

export type ToChild =
  | {
      type: 'fetch';
      id: number;
      sid: string;
      hash: string;
      /** The bundle: sent when the runtime may not have this sid at this hash. */
      code?: string;
      request: WireRequest;
      env: BackendEnv;
    }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; code: string; message: string };

export type FromChild =
  | { type: 'ready' }
  | { type: 'response'; id: number; ok: true; response: WireResponse; logs?: LogLine[] }
  | { type: 'response'; id: number; ok: false; failure: Failure; logs?: LogLine[] }
  /** The runtime has no isolate of this sid at this hash: send the request again with the code. */
  | { type: 'missing'; id: number }
  /**
   * A virtual-module call of the isolate of `sid`: `request` is the fetch it acts for (null for
   * calls that act for the app only, such as kv).
   */
  | { type: 'call'; id: number; sid: string; request: number | null; op: string; args: unknown[] };
