import type { FastifyInstance } from 'fastify';
import { answerErrorsInShape } from '@platform/core';
import { anthropicError } from './anthropic-response.js';
import { openAIError } from './openai-response.js';

/**
 * The one exception to the platform's envelope: under the OpenAI- and Anthropic-compatible
 * prefixes every error (validation, authentication and scope denials, unknown routes, provider
 * failures) is written in the client's own shape, with the status that API uses (libs/core
 * `answerErrorsInShape`); Anthropic's overloaded error is its 529.
 */
export function speakErrors(
  scope: FastifyInstance,
  shape: 'openai' | 'anthropic',
  options: { notFound?: boolean } = {},
) {
  answerErrorsInShape(
    scope,
    (status, message, reply) => {
      if (shape === 'openai') return { error: openAIError(status, message) };
      const body = anthropicError(status, message);
      if (body.error.type === 'overloaded_error') reply.code(529);
      return body;
    },
    options,
  );
}
