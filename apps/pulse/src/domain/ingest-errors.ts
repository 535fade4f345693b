import type { FastifyInstance } from 'fastify';
import { sendError } from '@platform/core';

/** PostHog's error body (its capture service's): a type, a code, the detail. */
export function postHogError(status: number, message: string) {
  const [type, code] =
    status === 401
      ? ['authentication_error', 'invalid_api_key']
      : status === 403
        ? ['authentication_error', 'permission_denied']
        : status === 404
          ? ['invalid_request', 'not_found']
          : status === 413
            ? ['validation_error', 'payload_too_large']
            : status === 429
              ? ['throttled', 'rate_limited']
              : status >= 500
                ? ['server_error', 'server_error']
                : ['validation_error', 'invalid_payload'];
  return { type, code, detail: message, attr: null };
}

/** Segment's error body: `success: false` and the message. */
export const segmentError = (status: number, message: string) => ({
  success: false as const,
  code: status === 401 ? 'unauthorized' : status === 413 ? 'too_large' : 'invalid_request',
  message,
});

/**
 * The documented exception to the platform's envelope: under the PostHog- and Segment-compatible
 * prefixes every error (validation, decoding, authentication and scope denials, unknown routes) is
 * written in the client's own shape, with the same status, since their libraries read nothing
 * else. The envelope is written as everywhere else and converted here, once: the prefix's own
 * not-found handler and an onSend hook scoped to the prefix.
 */
export function answerErrorsAs(scope: FastifyInstance, shape: 'posthog' | 'segment') {
  scope.setNotFoundHandler((request, reply) =>
    sendError(reply, 'NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`),
  );
  scope.addHook('onSend', (_request, reply, payload, done) => {
    if (
      reply.statusCode < 400 ||
      typeof payload !== 'string' ||
      !payload.includes('"success":false')
    )
      return done(null, payload);
    let message: string;
    try {
      const parsed = JSON.parse(payload) as { success?: boolean; error?: { message?: unknown } };
      if (parsed.success !== false || typeof parsed.error?.message !== 'string')
        return done(null, payload);
      message = parsed.error.message;
    } catch {
      return done(null, payload);
    }
    const body =
      shape === 'posthog'
        ? postHogError(reply.statusCode, message)
        : segmentError(reply.statusCode, message);
    done(null, JSON.stringify(body));
  });
}
