import multipart from '@fastify/multipart';
import { embed, generateImage, transcribe } from 'ai';
import { badRequest, ok, responses } from '@platform/core';
import { withRetries } from '../domain/call.js';
import { failBeforeOutput, INVOKE, prepare, startCall } from '../domain/calls.js';
import { MOCK_IMAGE, mockEmbedding, mockTranscription } from '../domain/mock.js';
import { dimensionsOption, embeddingModel, imageModel, transcriptionModel } from '../domain/sdk.js';
import type { InferenceRoutes } from '../domain/state.js';
import {
  EmbedInputSchema,
  EmbedSchema,
  ImageInputSchema,
  ImagesSchema,
  TranscribeInputSchema,
  TranscriptionSchema,
} from '../schemas/calls.js';

export const mediaRoutes: InferenceRoutes = async (app, { config, state }) => {
  const maxBytes = config.transcribeMaxBytes;
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: maxBytes, files: 1, fields: 10 },
  });

  app.post(
    '/embed',
    {
      config: { access: INVOKE },
      schema: {
        operationId: 'embed',
        summary: 'Embed a text',
        description:
          '`dimensions` where the provider has it (OpenAI, OpenAI-compatible, Google), else a 400 naming it.',
        body: EmbedInputSchema,
        response: responses({ 200: EmbedSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { routes, keyOf } = await prepare(state, config, 'embed', body);
      for (const route of routes) dimensionsOption(route, body.dimensions);
      const call = startCall(state, config, request, reply, 'embed');
      const options = {
        maxRetries: 0,
        abortSignal: call.signal,
        headers: { 'x-request-id': request.id },
      };
      try {
        const result = await withRetries(call, routes, config.maxAttempts, async (route) =>
          route.provider.type === 'mock'
            ? { embedding: mockEmbedding(body.input), usage: { tokens: undefined } }
            : embed({
                model: embeddingModel(route.provider, keyOf(route), route.model),
                value: body.input,
                providerOptions: dimensionsOption(route, body.dimensions),
                ...options,
              }),
        );
        const row = call.finish({
          status: 'ok',
          inputTokens: result.usage.tokens,
          inputText: body.input,
        });
        return ok({
          embedding: result.embedding,
          model: call.route!.requested,
          usage: { inputTokens: row.usage.inputTokens },
          requestId: row.id,
        });
      } catch (error) {
        return failBeforeOutput(call, reply, error, body.input);
      }
    },
  );

  app.post(
    '/images',
    {
      config: { access: INVOKE },
      schema: {
        operationId: 'generateImages',
        summary: 'Generate images',
        description:
          '`size` is `<width>x<height>`; images come back as base64 with their media type.',
        body: ImageInputSchema,
        response: responses({ 200: ImagesSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { routes, keyOf } = await prepare(state, config, 'image', body);
      const call = startCall(state, config, request, reply, 'image');
      try {
        const images = await withRetries(call, routes, config.maxAttempts, async (route) => {
          if (route.provider.type === 'mock')
            return Array.from({ length: body.n ?? 1 }, () => ({
              base64: MOCK_IMAGE,
              mediaType: 'image/png',
            }));
          const result = await generateImage({
            model: imageModel(route.provider, keyOf(route), route.model),
            prompt: body.prompt,
            n: body.n ?? 1,
            size: body.size as `${number}x${number}` | undefined,
            maxRetries: 0,
            abortSignal: call.signal,
            headers: { 'x-request-id': request.id },
          });
          return result.images.map((i) => ({ base64: i.base64, mediaType: i.mediaType }));
        });
        const row = call.finish({ status: 'ok' });
        return ok({ images, model: call.route!.requested, requestId: row.id });
      } catch (error) {
        return failBeforeOutput(call, reply, error, body.prompt);
      }
    },
  );

  app.post(
    '/transcribe',
    {
      // Base64 is 4/3 of the audio, plus the JSON around it.
      bodyLimit: Math.ceil((maxBytes * 4) / 3) + 64 * 1024,
      config: { access: INVOKE },
      schema: {
        operationId: 'transcribe',
        summary: 'Transcribe audio',
        description: `JSON with base64 \`audio\`, or multipart/form-data with \`model\` and \`file\`; at most ${maxBytes} bytes of audio (INFERENCE_TRANSCRIBE_MAX_BYTES), 413 beyond.`,
        body: TranscribeInputSchema,
        response: responses({ 200: TranscriptionSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const audio = audioOf(body);
      if (audio.length > maxBytes)
        return reply.code(413).send({
          success: false,
          error: {
            code: 'PAYLOAD_TOO_LARGE',
            message: `audio exceeds the limit of ${maxBytes} bytes`,
          },
        });
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
            providerOptions: body.language ? { openai: { language: body.language } } : undefined,
            maxRetries: 0,
            abortSignal: call.signal,
            headers: { 'x-request-id': request.id },
          });
        });
        const row = call.finish({ status: 'ok' });
        return ok({
          text: result.text,
          language: result.language ?? null,
          durationSeconds: result.durationInSeconds ?? null,
          model: call.route!.requested,
          requestId: row.id,
        });
      } catch (error) {
        return failBeforeOutput(call, reply, error, '');
      }
    },
  );
};

/** The audio of a JSON (base64 `audio`) or multipart (`file`) request. */
function audioOf(body: { audio?: string; file?: unknown }): Buffer {
  if (Buffer.isBuffer(body.file)) return body.file;
  if (body.file !== undefined) throw badRequest('file must be an uploaded file');
  if (body.audio === undefined || body.audio === '')
    throw badRequest('audio is required (base64), or send multipart/form-data with a file');
  if (!/^[A-Za-z0-9+/\r\n]*={0,2}$/.test(body.audio)) throw badRequest('audio must be base64');
  return Buffer.from(body.audio, 'base64');
}
