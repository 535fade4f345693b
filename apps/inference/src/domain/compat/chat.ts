import type { LanguageModelV4Content, LanguageModelV4FinishReason } from '@ai-sdk/provider';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { InferenceConfig } from '../../config.js';
import { cachedResult } from '../cache.js';
import { withRetries, type Finished } from '../call.js';
import { failBeforeOutput, prepare, startCall } from '../calls.js';
import { generationOptions, tokensOf, textOf, type Generation } from '../chat-model.js';
import { languageModel } from '../sdk.js';
import type { InferenceState } from '../state.js';
import { streamParts, type StreamWriter } from '../stream.js';
import { checkHonoured, type ParamNames } from './honoured.js';

export type Answer = {
  content: LanguageModelV4Content[];
  finishReason: LanguageModelV4FinishReason;
};

/** How one wire format asks and is answered. */
export interface ChatFormat<T> {
  names: ParamNames;
  /** The answer of a call that is not streamed. */
  answer(result: Answer, row: Finished, model: string): T;
  /** The events of a streamed one (`id`: the request-log entry's id). */
  writer(model: string, id: string): StreamWriter;
}

/**
 * A chat in a compatible format, on the native routes' path: the model's routes (fallbacks,
 * balancing), every option checked against each route's provider (400 naming the first it cannot
 * honour, nothing called), one call with its retries and its log row, streamed or not.
 */
export async function compatChat<T>(
  ctx: { state: InferenceState; config: InferenceConfig },
  request: FastifyRequest,
  reply: FastifyReply,
  input: {
    route: { model?: string; providerId?: string; fallbacks?: string[] };
    generation: Generation;
    stream: boolean;
    /** What the log estimates tokens from when the provider counts none. */
    logText: string;
  },
  format: ChatFormat<T>,
): Promise<T | undefined> {
  const { state, config } = ctx;
  const { generation, logText } = input;
  const { routes, keyOf } = await prepare(
    state,
    config,
    input.stream ? 'stream' : 'chat',
    input.route,
  );
  await checkHonoured(routes, keyOf, generation, format.names);
  const call = startCall(state, config, request, reply, input.stream ? 'stream' : 'chat');
  const options = generationOptions(generation, call.signal, call.requestId);
  let writer: StreamWriter | undefined;
  if (input.stream) {
    await streamParts(call, request, reply, {
      input: logText,
      maxAttempts: config.maxAttempts,
      routes,
      open: async (route) =>
        (await languageModel(route.provider, keyOf(route), route.model).doStream(options)).stream,
      writer: {
        // The writer is made once the route is known (the model it names).
        part: (part, send) =>
          (writer ??= format.writer(call.route!.requested, call.id)).part(part, send),
        finish: (part, row, send) =>
          (writer ??= format.writer(call.route!.requested, call.id)).finish(part, row, send),
        error: (failure, send) =>
          (writer ??= format.writer(call.route!.requested, call.id)).error(failure, send),
      },
    });
    return undefined;
  }
  try {
    // The opt-in exact-match cache (domain/cache.ts), as the native /chat: a hit calls no provider.
    const result = await cachedResult(state, call, request, reply, routes, generation, () =>
      withRetries(call, routes, config.maxAttempts, (route) =>
        languageModel(route.provider, keyOf(route), route.model).doGenerate(options),
      ),
    );
    call.markFirstOutput();
    const row = call.finish({
      status: 'ok',
      ...tokensOf(result.usage),
      inputText: logText,
      outputText: textOf(result.content),
    });
    return format.answer(result, row, call.route!.requested);
  } catch (error) {
    await failBeforeOutput(call, reply, error, logText);
    return undefined;
  }
}
