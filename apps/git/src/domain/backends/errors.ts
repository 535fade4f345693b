import { ApiError, badGateway, conflict, notFound } from '@platform/core';

/** An ApiError that asks the client to come back later (the Retry-After header, in seconds). */
export type RetryableError = ApiError & { retryAfterSeconds?: number };

interface OctokitFailure {
  status: number;
  message: string;
  response?: { headers: Record<string, string | number | undefined>; data?: unknown };
}

const isOctokitFailure = (error: unknown): error is OctokitFailure =>
  error instanceof Error &&
  error.name === 'HttpError' &&
  typeof (error as { status?: unknown }).status === 'number';

/** GitHub's `{ message, errors: [{ resource, field, code, message }] }`, as one readable line. */
function describe(data: unknown, fallback: string): string {
  if (typeof data !== 'object' || data === null) return fallback;
  const { message, errors } = data as { message?: unknown; errors?: unknown };
  const details = Array.isArray(errors)
    ? errors.map((e) =>
        typeof e === 'string'
          ? e
          : [e?.resource, e?.field, e?.code, e?.message]
              .filter((p) => typeof p === 'string')
              .join(' '),
      )
    : [];
  const head = typeof message === 'string' ? message : fallback;
  return details.length > 0 ? `${head} (${details.join('; ')})` : head;
}

/** Seconds until GitHub lifts a rate limit: Retry-After, else x-ratelimit-reset, else a minute. */
function retryAfter(headers: Record<string, string | number | undefined>): number | undefined {
  const after = Number(headers['retry-after']);
  if (Number.isFinite(after) && after >= 0) return Math.ceil(after);
  if (String(headers['x-ratelimit-remaining']) === '0') {
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(reset)) return Math.max(1, Math.ceil(reset - Date.now() / 1000));
  }
  return undefined;
}

/**
 * A GitHub failure in the platform's envelope, with its meaning: 404 not found, 409 conflict,
 * 422 (validation) as 400, a rate limit as 429 saying when to retry, 5xx and no answer as 502.
 */
export function providerError(error: unknown, what: string): unknown {
  if (error instanceof ApiError) return error;
  if (!isOctokitFailure(error)) return error;
  const { status, response } = error;
  const headers = response?.headers ?? {};
  const message = describe(response?.data, error.message);
  const wait = retryAfter(headers);
  if (status === 429 || (status === 403 && wait !== undefined)) {
    const seconds = wait ?? 60;
    const failure: RetryableError = new ApiError(
      'RATE_LIMITED',
      `GitHub's rate limit is exhausted (${what}): retry after ${seconds} s, at ${new Date(Date.now() + seconds * 1000).toISOString()}`,
    );
    failure.retryAfterSeconds = seconds;
    return failure;
  }
  if (status === 0 || status >= 500)
    return badGateway(
      `GitHub failed (${what}): ${status === 0 ? error.message : `HTTP ${status}`}`,
    );
  if (status === 401)
    return new ApiError(
      'FORBIDDEN',
      `GitHub refused the delegated token (${what}): ${message}; connect the provider again`,
    );
  if (status === 403) return new ApiError('FORBIDDEN', `GitHub refused (${what}): ${message}`);
  if (status === 404) return notFound('GitHub resource', `${what} (${message})`);
  if (status === 409 || status === 405) return conflict(`GitHub refused (${what}): ${message}`);
  if (status === 422 || status === 400)
    return new ApiError('BAD_REQUEST', `GitHub refused (${what}): ${message}`);
  return badGateway(`GitHub answered HTTP ${status} (${what}): ${message}`);
}

/** Runs a provider call, its failure mapped by providerError. */
export async function mapped<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw providerError(error, what);
  }
}
