import { named } from '@platform/core';
import { prepare } from '../domain/calls.js';
import {
  ANTHROPIC_TAG as TAG,
  COMPAT_BODY_LIMIT,
  COMPAT_INVOKE as ANTHROPIC_INVOKE,
} from '../domain/compat/access.js';
import {
  fromAnthropic,
  ANTHROPIC_NAMES,
  type AnthropicRequest,
} from '../domain/compat/anthropic-request.js';
import { anthropicMessage, anthropicWriter } from '../domain/compat/anthropic-response.js';
import { compatChat } from '../domain/compat/chat.js';
import { speakErrors } from '../domain/compat/errors.js';
import { estimateTokens } from '../domain/mock.js';
import type { InferenceRoutes } from '../domain/state.js';
import {
  AnthropicErrorSchema,
  CountTokensInputSchema,
  CountTokensSchema,
  MessageSchema,
  MessagesInputSchema,
} from '../schemas/anthropic.js';

const answers = <T>(ok: T) => ({
  200: ok,
  '4xx': AnthropicErrorSchema,
  '5xx': AnthropicErrorSchema,
});

/**
 * Anthropic's Messages API under `/anthropic/v1` (point an Anthropic SDK's `baseURL` at
 * `.../anthropic`): the platform's routing, retries, fallbacks and request log behind
 * Anthropic's wire format, for any model the platform routes.
 */
export const anthropicRoutes: InferenceRoutes = async (app, ctx) => {
  await app.register(
    named(async (scope) => {
      speakErrors(scope, 'anthropic', { notFound: true });
      scope.post(
        '/messages',
        {
          // Images travel inline (base64): more room than the platform's 1 MiB default.
          bodyLimit: COMPAT_BODY_LIMIT,
          config: { access: ANTHROPIC_INVOKE },
          schema: {
            tags: [TAG],
            operationId: 'anthropicMessages',
            summary: 'Create a message (Anthropic-compatible)',
            description:
              "Anthropic `POST /v1/messages`: system, messages with text, images (base64 or url), tool_use and tool_result blocks, tools, tool_choice, temperature, top_p, top_k, stop_sequences, max_tokens. `stream: true` answers message_start, ping, content_block_start/delta/stop (text_delta, input_json_delta), message_delta (stop reason and usage), message_stop; a failure after the first event is an `error` event. Any model the platform routes: a parameter the chosen provider cannot honour is a 400 naming it. Errors are in Anthropic's shape (529 overloaded_error). Platform extensions: `providerId`, `fallbacks`.",
            body: MessagesInputSchema,
            response: answers(MessageSchema),
          },
        },
        async (request, reply) => {
          const body = request.body as AnthropicRequest & {
            stream?: boolean;
            providerId?: string;
            fallbacks?: string[];
          };
          const answer = await compatChat(
            ctx,
            request,
            reply,
            {
              route: { model: body.model, providerId: body.providerId, fallbacks: body.fallbacks },
              generation: fromAnthropic(body),
              stream: body.stream === true,
              logText: JSON.stringify([body.system ?? '', body.messages]),
            },
            { names: ANTHROPIC_NAMES, answer: anthropicMessage, writer: anthropicWriter },
          );
          return answer ?? reply;
        },
      );

      scope.post(
        '/messages/count_tokens',
        {
          config: { access: ANTHROPIC_INVOKE },
          schema: {
            tags: [TAG],
            operationId: 'anthropicCountTokens',
            summary: 'Count the input tokens of a message (Anthropic-compatible)',
            description:
              "Anthropic `POST /v1/messages/count_tokens`: the request is checked as `/messages` checks it (the model routed, its blocks translated); the count is the platform's estimate (about four characters a token of the prompt and tools), the one the request log uses when a provider reports none. Nothing is called nor logged.",
            body: CountTokensInputSchema,
            response: answers(CountTokensSchema),
          },
        },
        async (request) => {
          const body = request.body as AnthropicRequest & { providerId?: string };
          const { model, providerId, ...rest } = body;
          const generation = fromAnthropic({ model, ...rest });
          await prepare(ctx.state, ctx.config, 'chat', { model, providerId });
          return {
            input_tokens: estimateTokens(
              JSON.stringify([generation.prompt, generation.tools ?? []]),
            ),
          };
        },
      );
    }),
    { prefix: '/anthropic/v1' },
  );
};
