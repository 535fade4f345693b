import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendError } from './app.js';

/**
 * The documented exception to the platform's envelope: under a prefix that speaks another API
 * (OpenAI, Anthropic, PostHog, Segment: routes tagged `<client>-compatible`), every error
 * (validation, decoding, authentication and scope denials, unknown routes when `notFound`) is
 * written in that client's own shape, since its library reads nothing else. The envelope is
 * written as everywhere else and converted here, once, by an onSend hook scoped to the prefix:
 * `toBody` makes the client's body from the status and message (and may change the status).
 */
export function answerErrorsInShape(
  scope: FastifyInstance,
  toBody: (status: number, message: string, reply: FastifyReply) => unknown,
  options: { notFound?: boolean } = {},
) {
  if (options.notFound)
    scope.setNotFoundHandler((request, reply) =>
      sendError(
        reply,
        'NOT_FOUND',
        `Route ${request.method} ${request.url.split('?')[0]} not found`,
      ),
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
    done(null, JSON.stringify(toBody(reply.statusCode, message, reply)));
  });
}
