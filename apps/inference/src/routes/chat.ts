import type { FastifyReply } from 'fastify';
import { ok, responses, sendError, type ServiceRoutes } from '@platform/core';
import type { InferenceConfig } from '../config.js';
import type { InferenceDatabase } from '../database.js';
import { CallFailure, classify } from '../providers/failures.js';
import { withRetries, type Call } from '../providers/call.js';
import { callOptions, textOf, tokensOf, type ChatMessage } from '../providers/chat-model.js';
import { languageModel } from '../providers/sdk.js';
import { ChatInputSchema, ChatSchema } from '../schemas/calls.js';
import { INVOKE, prepare, sharedOf, startCall } from './context.js';
import { streamChat } from './stream.js';

export type ChatInput = {
  model?: string;
  messages: ChatMessage[];
  maxTokens?: number;
  providerId?: string;
  fallbacks?: string[];
};

export const modelOptions = (call: Call, body: ChatInput) =>
  callOptions(body.messages, body.maxTokens, call.signal, call.requestId);

/** A failure before any output: the envelope with its status, and the log row. */
export async function failBeforeOutput(
  call: Call,
  reply: FastifyReply,
  error: unknown,
  input: string,
) {
  const failure =
    error instanceof CallFailure
      ? error
      : classify(error, call.route?.provider ?? { name: 'unknown', env_var: null });
  const aborted = call.signal.reason === 'client';
  call.finish({ status: aborted ? 'aborted' : 'error', inputText: input, error: failure.message });
  return sendError(reply, failure.code, failure.message, failure.status);
}

export const chatRoutes: ServiceRoutes<InferenceDatabase, InferenceConfig> = async (
  app,
  { db, config },
) => {
  const shared = sharedOf(db, app);
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
      const { routes, keyOf } = await prepare(shared, config, 'chat', body);
      const call = startCall(shared, config, request, reply, 'chat');
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
      const { routes, keyOf } = await prepare(shared, config, 'stream', body);
      const call = startCall(shared, config, request, reply, 'stream');
      return streamChat(call, request, reply, body, config.maxAttempts, routes, async (route) => {
        const model = languageModel(route.provider, keyOf(route), route.model);
        return (await model.doStream(modelOptions(call, body))).stream;
      });
    },
  );
};
