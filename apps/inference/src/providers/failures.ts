import { APICallError } from 'ai';
import type { ErrorCode } from '@platform/core';

/** Why a call failed, as the client is told: status, code, message; and whether to try again. */
export class CallFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly retryable = false,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'CallFailure';
  }
}

/** Retry-After in seconds or as an HTTP date, or retry-after-ms; undefined when absent. */
export function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] && Number.isFinite(ms)) return Math.max(0, ms);
  const raw = headers['retry-after'];
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const overloaded = (text: string) => /overloaded/i.test(text);

/** Gemini says when to come back in its body: `error.details[].retryDelay` ("27s") of a RetryInfo. */
function retryInfoMs(body: string | undefined): number | undefined {
  const match = body && /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body);
  return match ? Number(match[1]) * 1000 : undefined;
}

function upstreamMessage(error: APICallError): string {
  const body = error.responseBody ?? '';
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const inner = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    return (inner ?? parsed.message ?? error.message).slice(0, 500);
  } catch {
    return (body || error.message).slice(0, 500);
  }
}

/** A provider's failure as the platform answers it (the provider named, never its key). */
export function classify(
  error: unknown,
  provider: { name: string; env_var: string | null },
): CallFailure {
  if (error instanceof CallFailure) return error;
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const message = upstreamMessage(error);
    const said = `Provider ${provider.name} answered ${status ?? 'no status'}: ${message}`;
    const wait = retryAfterMs(error.responseHeaders) ?? retryInfoMs(error.responseBody);
    if (status === 429) return new CallFailure(429, 'RATE_LIMITED', said, true, wait);
    if (status === 401 || status === 403)
      return new CallFailure(
        502,
        'BAD_GATEWAY',
        `Provider ${provider.name} refused the API key in ${provider.env_var} (${status}): ${message}`,
      );
    if (status !== undefined && status >= 400 && status < 500)
      return new CallFailure(400, 'BAD_REQUEST', said);
    const retryable =
      status === undefined ? error.isRetryable : status >= 500 || overloaded(message);
    return new CallFailure(502, 'BAD_GATEWAY', said, retryable, wait);
  }
  // Errors inside a stream (Anthropic's `error` event, a cut connection) are plain objects or errors.
  const text =
    error instanceof Error
      ? error.message
      : typeof error === 'object' && error
        ? JSON.stringify(error)
        : String(error);
  return new CallFailure(
    502,
    'BAD_GATEWAY',
    `Provider ${provider.name} failed: ${text.slice(0, 500)}`,
    overloaded(text),
  );
}

export const timedOut = (ms: number) =>
  new CallFailure(
    504,
    'BAD_GATEWAY',
    `The provider did not answer within ${ms} ms (INFERENCE_TIMEOUT_MS)`,
  );
