import type { FastifyInstance } from 'fastify';
import { sendError } from '@platform/core';
import { anthropicError } from './anthropic-response.js';
import { openAIError } from './openai-response.js';

/**
 * The one exception to the platform's envelope: under the OpenAI- and Anthropic-compatible
 * prefixes every error (validation, authentication and scope denials, unknown routes, provider
 * failures) is written in the client's own shape, with the status that API uses, since their SDKs
 * read nothing else. The envelope is written as everywhere else and converted here, once: the
 * prefix's own not-found handler and an onSend hook scoped to the prefix.
 */
export function speakErrors(
  scope: FastifyInstance,
  shape: 'openai' | 'anthropic',
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
    if (shape === 'openai')
      return done(null, JSON.stringify({ error: openAIError(reply.statusCode, message) }));
    const body = anthropicError(reply.statusCode, message);
    if (body.error.type === 'overloaded_error') reply.code(529);
    done(null, JSON.stringify(body));
  });
}
