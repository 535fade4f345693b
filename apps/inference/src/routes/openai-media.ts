import multipart from '@fastify/multipart';
import { embedMany, generateImage, transcribe } from 'ai';
import { badRequest, named, type Static } from '@platform/core';
import { withRetries } from '../domain/call.js';
import { failBeforeOutput, prepare, startCall } from '../domain/calls.js';
import { COMPAT_INVOKE, OPENAI_TAG, refuseUnknown } from '../domain/compat/access.js';
import { speakErrors } from '../domain/compat/errors.js';
import { MOCK_IMAGE, mockEmbedding, mockTranscription } from '../domain/mock.js';
import { dimensionsOption, embeddingModel, imageModel, transcriptionModel } from '../domain/sdk.js';
import type { InferenceRoutes } from '../domain/state.js';
import {
  EmbeddingsInputSchema,
  EmbeddingsSchema,
  ImageGenerationInputSchema,
  ImagesResponseSchema,
  OpenAIErrorSchema,
  TranscriptionInputSchema,
  TranscriptionResponseSchema,
} from '../schemas/openai.js';

const answers = <T>(ok: T) => ({ 200: ok, '4xx': OpenAIErrorSchema, '5xx': OpenAIErrorSchema });

/** An embedding as OpenAI's `base64` encoding writes it: little-endian float32s. */
const base64Of = (values: number[]) =>
  Buffer.from(new Float32Array(values).buffer).toString('base64');

/** OpenAI's embeddings, image generation and transcription under `/openai/v1`. */
export const openAIMediaRoutes: InferenceRoutes = async (app, { config, state }) => {
  await app.register(
    named(async (scope) => {
      speakErrors(scope, 'openai');
      const maxBytes = config.transcribeMaxBytes;
      await scope.register(multipart, {
        attachFieldsToBody: 'keyValues',
        limits: { fileSize: maxBytes, files: 1, fields: 10 },
      });
      const retries = (call: { signal: AbortSignal }, requestId: string) => ({
        maxRetries: 0,
        abortSignal: call.signal,
        headers: { 'x-request-id': requestId },
      });

      scope.post(
        '/embeddings',
        {
          config: { access: COMPAT_INVOKE },
          schema: {
            tags: [OPENAI_TAG],
            operationId: 'openaiEmbeddings',
            summary: 'Embeddings (OpenAI-compatible)',
            description:
              'OpenAI `POST /v1/embeddings`: `input` a string or an array of strings (token arrays are refused), `encoding_format` float or base64 (little-endian float32, what the OpenAI SDK asks for by default), `dimensions` where the provider has it (OpenAI, OpenAI-compatible, Google), else a 400 naming it.',
            body: EmbeddingsInputSchema,
            response: answers(EmbeddingsSchema),
          },
        },
        async (request, reply) => {
          const body = request.body as Static<typeof EmbeddingsInputSchema>;
          const unknown = refuseUnknown(body, [
            'model',
            'input',
            'encoding_format',
            'dimensions',
            'user',
            'providerId',
          ]);
          if (unknown) throw badRequest(unknown);
          const values = typeof body.input === 'string' ? [body.input] : body.input;
          const { routes, keyOf } = await prepare(state, config, 'embed', body);
          for (const route of routes) dimensionsOption(route, body.dimensions);
          const call = startCall(state, config, request, reply, 'embed');
          const input = values.join('\n');
          try {
            const result = await withRetries(call, routes, config.maxAttempts, async (route) =>
              route.provider.type === 'mock'
                ? { embeddings: values.map(mockEmbedding), usage: { tokens: undefined } }
                : embedMany({
                    model: embeddingModel(route.provider, keyOf(route), route.model),
                    values,
                    providerOptions: dimensionsOption(route, body.dimensions),
                    ...retries(call, request.id),
                  }),
            );
            const row = call.finish({
              status: 'ok',
              inputTokens: result.usage.tokens,
              inputText: input,
            });
            const base64 = body.encoding_format === 'base64';
            return {
              object: 'list' as const,
              data: result.embeddings.map((embedding, index) => ({
                object: 'embedding' as const,
                index,
                embedding: base64 ? base64Of(embedding) : embedding,
              })),
              model: call.route!.requested,
              usage: { prompt_tokens: row.usage.inputTokens, total_tokens: row.usage.inputTokens },
            };
          } catch (error) {
            return failBeforeOutput(call, reply, error, input);
          }
        },
      );

      scope.post(
        '/images/generations',
        {
          config: { access: COMPAT_INVOKE },
          schema: {
            tags: [OPENAI_TAG],
            operationId: 'openaiImageGenerations',
            summary: 'Generate images (OpenAI-compatible)',
            description:
              'OpenAI `POST /v1/images/generations`: prompt, model, n, size; images come back as `b64_json` (`response_format: url` is refused: the platform keeps no images). Other parameters (quality, style, ...) are a 400 naming them.',
            body: ImageGenerationInputSchema,
            response: answers(ImagesResponseSchema),
          },
        },
        async (request, reply) => {
          const body = request.body as Static<typeof ImageGenerationInputSchema>;
          const unknown = refuseUnknown(body, [
            'model',
            'prompt',
            'n',
            'size',
            'response_format',
            'user',
            'providerId',
          ]);
          if (unknown) throw badRequest(unknown);
          if (body.response_format === 'url')
            throw badRequest(
              'Unsupported parameter: response_format: url is not offered, images are returned as b64_json only',
            );
          const { routes, keyOf } = await prepare(state, config, 'image', body);
          const call = startCall(state, config, request, reply, 'image');
          const n = body.n ?? 1;
          const size =
            body.size === 'auto' ? undefined : (body.size as `${number}x${number}` | undefined);
          try {
            const images = await withRetries(call, routes, config.maxAttempts, async (route) => {
              if (route.provider.type === 'mock')
                return Array.from({ length: n }, () => MOCK_IMAGE);
              const result = await generateImage({
                model: imageModel(route.provider, keyOf(route), route.model),
                prompt: body.prompt,
                n,
                size,
                ...retries(call, request.id),
              });
              return result.images.map((i) => i.base64);
            });
            call.finish({ status: 'ok' });
            return {
              created: Math.floor(Date.now() / 1000),
              data: images.map((b64_json) => ({ b64_json })),
            };
          } catch (error) {
            return failBeforeOutput(call, reply, error, body.prompt);
          }
        },
      );

      scope.post(
        '/audio/transcriptions',
        {
          config: { access: COMPAT_INVOKE },
          schema: {
            tags: [OPENAI_TAG],
            operationId: 'openaiTranscriptions',
            summary: 'Transcribe audio (OpenAI-compatible)',
            description: `OpenAI \`POST /v1/audio/transcriptions\` (multipart/form-data): file, model, language, response_format json (default), text or verbose_json; at most ${maxBytes} bytes of audio (INFERENCE_TRANSCRIBE_MAX_BYTES), 413 beyond.`,
            consumes: ['multipart/form-data'],
            body: TranscriptionInputSchema,
            response: answers(TranscriptionResponseSchema),
          },
        },
        async (request, reply) => {
          const body = request.body as Static<typeof TranscriptionInputSchema>;
          const unknown = refuseUnknown(body, [
            'file',
            'model',
            'language',
            'response_format',
            'providerId',
          ]);
          if (unknown) throw badRequest(unknown);
          if (!Buffer.isBuffer(body.file))
            throw badRequest('Invalid parameter: file: an uploaded audio file is required');
          const audio = body.file;
          const { routes, keyOf } = await prepare(state, config, 'transcribe', body);
          const call = startCall(state, config, request, reply, 'transcribe');
          try {
            const result = await withRetries(call, routes, config.maxAttempts, async (route) => {
              if (route.provider.type === 'mock')
                return {
                  text: mockTranscription(audio.length),
                  language: body.language ?? 'en',
                  durationInSeconds: undefined,
                };
              return transcribe({
                model: transcriptionModel(route.provider, keyOf(route), route.model),
                audio,
                providerOptions: body.language
                  ? { openai: { language: body.language } }
                  : undefined,
                ...retries(call, request.id),
              });
            });
            call.finish({ status: 'ok' });
            if (body.response_format === 'text')
              return reply.type('text/plain; charset=utf-8').send(result.text);
            if (body.response_format === 'verbose_json')
              return {
                task: 'transcribe',
                text: result.text,
                language: result.language ?? undefined,
                duration: result.durationInSeconds ?? undefined,
              };
            return { text: result.text };
          } catch (error) {
            return failBeforeOutput(call, reply, error, '');
          }
        },
      );
    }),
    { prefix: '/openai/v1' },
  );
};
