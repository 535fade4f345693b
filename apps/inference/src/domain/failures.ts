import { AISDKError, APICallError } from 'ai';
import { ApiError, type ErrorCode } from '@platform/core';

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

/**
 * A provider's text as we repeat it (to the client, in the log): control characters out, spaces
 * collapsed, at most 300 characters.
 */
export function sanitise(text: string): string {
  const clean = text
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > 300 ? `${clean.slice(0, 299)}…` : clean;
}

/** `message`, or `error.message`, of a provider's error object (every provider's shape); else undefined. */
function messageOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { message, error } = value as { message?: unknown; error?: unknown };
  if (typeof message === 'string') return sanitise(message) || undefined;
  if (typeof error === 'object' && error !== null)
    return messageOf({ message: (error as { message?: unknown }).message });
  return undefined;
}

/**
 * The provider's own error message when its body is JSON of the providers' error shape
 * (`{"error":{"message":...}}`: OpenAI, Anthropic, Gemini, OpenRouter), sanitised; never the raw
 * body (it could be any host's answer).
 */
function upstreamMessage(error: APICallError): string | undefined {
  try {
    const parsed = JSON.parse(error.responseBody ?? '') as { error?: unknown };
    return typeof parsed?.error === 'object' ? messageOf(parsed.error) : undefined;
  } catch {
    return undefined;
  }
}

/** What a failure that is not an HTTP answer says, without repeating what the provider sent. */
function failureText(error: unknown): string {
  if (error instanceof Error) {
    // The SDK's parse and validation errors quote the body they could not read.
    if (AISDKError.isInstance(error) || error instanceof SyntaxError)
      return `its answer could not be read (${error.name})`;
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return sanitise(`${error.message}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  // Errors inside a stream (Anthropic's `error` event, an OpenAI-style error chunk) are objects.
  return messageOf(error) ?? 'it sent an error';
}

/** A provider's failure as the platform answers it (the provider named, never its key). */
export function classify(
  error: unknown,
  provider: { name: string; env_var: string | null },
): CallFailure {
  if (error instanceof CallFailure) return error;
  if (error instanceof ApiError)
    return new CallFailure(error.statusCode, error.code, error.message);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const message = upstreamMessage(error);
    const said =
      status !== undefined && status < 300
        ? `Provider ${provider.name} answered ${status} with something that could not be read`
        : `Provider ${provider.name} answered ${status ?? 'no status'}${message ? `: ${message}` : ''}`;
    const wait = retryAfterMs(error.responseHeaders) ?? retryInfoMs(error.responseBody);
    if (status === 429) return new CallFailure(429, 'RATE_LIMITED', said, true, wait);
    if (status === 401 || status === 403)
      return new CallFailure(
        502,
        'BAD_GATEWAY',
        `Provider ${provider.name} refused the API key in ${provider.env_var} (${status})${message ? `: ${message}` : ''}`,
      );
    if (status !== undefined && status >= 400 && status < 500)
      return new CallFailure(400, 'BAD_REQUEST', said);
    const retryable =
      status === undefined
        ? error.isRetryable
        : status >= 500 || overloaded(error.responseBody ?? error.message);
    return new CallFailure(502, 'BAD_GATEWAY', said, retryable, wait);
  }
  const raw =
    error instanceof Error
      ? error.message
      : typeof error === 'object' && error
        ? JSON.stringify(error)
        : String(error);
  return new CallFailure(
    502,
    'BAD_GATEWAY',
    `Provider ${provider.name} failed: ${failureText(error)}`,
    overloaded(raw),
  );
}

export const timedOut = (ms: number) =>
  new CallFailure(
    504,
    'BAD_GATEWAY',
    `The provider did not answer within ${ms} ms (INFERENCE_TIMEOUT_MS)`,
  );
