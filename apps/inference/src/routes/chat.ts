import { ok, responses } from '@platform/core';
import { withRetries } from '../domain/call.js';
import { failBeforeOutput, INVOKE, modelOptions, prepare, startCall } from '../domain/calls.js';
import { textOf, tokensOf } from '../domain/chat-model.js';
import { languageModel } from '../domain/sdk.js';
import type { InferenceRoutes } from '../domain/state.js';
import { streamChat } from '../domain/stream.js';
import { ChatInputSchema, ChatSchema } from '../schemas/calls.js';

export const chatRoutes: InferenceRoutes = async (app, { config, state }) => {
  app.post(
    '/chat',
    {
      config: { access: INVOKE },
      schema: {
        operationId: 'chat',
        summary: 'Chat with a model',
        description:
          'Routes by model name unless providerId is given; retries 429/5xx/overloaded (Retry-After honoured), then tries `fallbacks` in order. 400 when model is missing or unroutable or the provider key is unset, 429 rate limited, 502 provider failure, 504 time limit.',
        body: ChatInputSchema,
        response: responses({ 200: ChatSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { routes, keyOf } = await prepare(state, config, 'chat', body);
      const call = startCall(state, config, request, reply, 'chat');
      const input = JSON.stringify(body.messages);
      try {
        const result = await withRetries(call, routes, config.maxAttempts, (route) =>
          languageModel(route.provider, keyOf(route), route.model).doGenerate(
            modelOptions(call, body),
          ),
        );
        call.markFirstOutput();
        const content = textOf(result.content);
        const row = call.finish({
          status: 'ok',
          ...tokensOf(result.usage),
          inputText: input,
          outputText: content,
        });
        return ok({
          content,
          model: call.route!.requested,
          usage: row.usage,
          requestId: row.id,
        });
      } catch (error) {
        return failBeforeOutput(call, reply, error, input);
      }
    },
  );

  app.post(
    '/chat/stream',
    {
      config: { access: INVOKE },
      schema: {
        operationId: 'chatStream',
        summary: 'Chat with a model, streamed as Server-Sent Events',
        description:
          'Events (spec 6.2): `content_block_delta` per chunk, then `message_stop` with usage; a failure after the first chunk ends the stream with an `error` event, never a clean stop. Failures before the first chunk are JSON envelopes (400/429/502/504). Retries happen only before the first chunk.',
        body: ChatInputSchema,
        response: responses({ 200: ChatSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { routes, keyOf } = await prepare(state, config, 'stream', body);
      const call = startCall(state, config, request, reply, 'stream');
      return streamChat(call, request, reply, body, config.maxAttempts, routes, async (route) => {
        const model = languageModel(route.provider, keyOf(route), route.model);
        return (await model.doStream(modelOptions(call, body))).stream;
      });
    },
  );
};
