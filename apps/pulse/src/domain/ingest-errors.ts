import type { FastifyInstance } from 'fastify';
import { answerErrorsInShape } from '@platform/core';

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
 * prefixes every error (unknown routes included) is written in the client's own shape, with the
 * same status (libs/core `answerErrorsInShape`).
 */
export function answerErrorsAs(scope: FastifyInstance, shape: 'posthog' | 'segment') {
  answerErrorsInShape(scope, shape === 'posthog' ? postHogError : segmentError, { notFound: true });
}
