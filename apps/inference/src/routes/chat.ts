import { ok, responses } from '@platform/core';
import { cachedResult } from '../domain/cache.js';
import { withRetries } from '../domain/call.js';
import { failBeforeOutput, INVOKE, prepare, startCall } from '../domain/calls.js';
import { generationOptions, textOf, tokensOf, toolCallsOf } from '../domain/chat-model.js';
import { checkHonoured } from '../domain/compat/honoured.js';
import { fromNative, NATIVE_NAMES } from '../domain/compat/native.js';
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
          'Routes by model name unless providerId is given; retries 429/5xx/overloaded (Retry-After honoured), then tries `fallbacks` in order. Messages may carry images, tool calls and tool results; temperature, topP, topK, stop, seed, penalties, tools, toolChoice and responseFormat (JSON mode, JSON schema) are passed on, and one the provider cannot honour is a 400 naming it. 400 when model is missing or unroutable or the provider key is unset, 429 rate limited, 502 provider failure, 504 time limit.',
        body: ChatInputSchema,
        response: responses({ 200: ChatSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const generation = fromNative(body);
      const { routes, keyOf } = await prepare(state, config, 'chat', body);
      await checkHonoured(routes, keyOf, generation, NATIVE_NAMES);
      const call = startCall(state, config, request, reply, 'chat');
      const options = generationOptions(generation, call.signal, call.requestId);
      const input = JSON.stringify(body.messages);
      try {
        // Opt-in exact-match cache (domain/cache.ts): a hit calls no provider.
        const result = await cachedResult(state, call, request, reply, routes, body, () =>
          withRetries(call, routes, config.maxAttempts, (route) =>
            languageModel(route.provider, keyOf(route), route.model).doGenerate(options),
          ),
        );
        call.markFirstOutput();
        const content = textOf(result.content);
        const toolCalls = toolCallsOf(result.content);
        const row = call.finish({
          status: 'ok',
          ...tokensOf(result.usage),
          inputText: input,
          outputText: content,
        });
        return ok({
          content,
          ...(toolCalls.length ? { toolCalls } : {}),
          finishReason: result.finishReason.unified,
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
          'Events (spec 6.2): `content_block_delta` per chunk of text, `tool_call` per complete tool call, then `message_stop` with usage; options as /chat; a failure after the first chunk ends the stream with an `error` event, never a clean stop. Failures before the first chunk are JSON envelopes (400/429/502/504). Retries happen only before the first chunk.',
        body: ChatInputSchema,
        response: responses({ 200: ChatSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const generation = fromNative(body);
      const { routes, keyOf } = await prepare(state, config, 'stream', body);
      await checkHonoured(routes, keyOf, generation, NATIVE_NAMES);
      const call = startCall(state, config, request, reply, 'stream');
      const options = generationOptions(generation, call.signal, call.requestId);
      return streamChat(call, request, reply, body, config.maxAttempts, routes, async (route) => {
        const model = languageModel(route.provider, keyOf(route), route.model);
        return (await model.doStream(options)).stream;
      });
    },
  );
};
