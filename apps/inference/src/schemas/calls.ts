import { Type } from '@platform/core';

const ModelName = Type.String({
  maxLength: 300,
  title: 'model',
  description: 'Required unless providerId is given (then its defaultModel)',
});
const ProviderId = Type.String({
  minLength: 1,
  maxLength: 100,
  title: 'providerId',
  description: 'Provider id or name; default: chosen from the model name (spec 4.10)',
});
const Fallbacks = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
  maxItems: 5,
  title: 'fallbacks',
  description: 'Models tried in order when the model fails before any output was sent',
});

export const ChatInputSchema = Type.Object({
  model: Type.Optional(ModelName),
  messages: Type.Array(
    Type.Object({
      role: Type.Union([Type.Literal('system'), Type.Literal('user'), Type.Literal('assistant')], {
        title: 'role',
      }),
      content: Type.String({ maxLength: 1_000_000, title: 'content' }),
    }),
    { minItems: 1, maxItems: 1000, title: 'messages' },
  ),
  maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, title: 'maxTokens' })),
  providerId: Type.Optional(ProviderId),
  fallbacks: Type.Optional(Fallbacks),
});

export const UsageSchema = Type.Object({
  inputTokens: Type.Integer(),
  outputTokens: Type.Integer(),
});

export const ChatSchema = Type.Object({
  content: Type.String(),
  model: Type.String(),
  usage: UsageSchema,
  requestId: Type.String({ description: 'The request log entry: GET /requests/:id' }),
});

export const EmbedInputSchema = Type.Object({
  model: Type.Optional(ModelName),
  input: Type.String({ minLength: 1, maxLength: 1_000_000, title: 'input' }),
  providerId: Type.Optional(ProviderId),
});

export const EmbedSchema = Type.Object({
  embedding: Type.Array(Type.Number()),
  model: Type.String(),
  usage: Type.Object({ inputTokens: Type.Integer() }),
  requestId: Type.String(),
});

export const ImageInputSchema = Type.Object({
  model: Type.Optional(ModelName),
  prompt: Type.String({ minLength: 1, maxLength: 32_000, title: 'prompt' }),
  size: Type.Optional(
    Type.String({
      pattern: '^[1-9][0-9]{0,4}x[1-9][0-9]{0,4}$',
      title: 'size',
      description: '<width>x<height>, e.g. 1024x1024',
    }),
  ),
  n: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, title: 'n' })),
  providerId: Type.Optional(ProviderId),
});

export const ImagesSchema = Type.Object({
  images: Type.Array(Type.Object({ base64: Type.String(), mediaType: Type.String() })),
  model: Type.String(),
  requestId: Type.String(),
});

export const TranscribeInputSchema = Type.Object({
  model: Type.Optional(ModelName),
  audio: Type.Optional(Type.String({ title: 'audio', description: 'Base64 audio (JSON)' })),
  language: Type.Optional(Type.String({ minLength: 2, maxLength: 10, title: 'language' })),
  providerId: Type.Optional(ProviderId),
  file: Type.Optional(Type.Unknown({ description: 'The audio file (multipart/form-data)' })),
});

export const TranscriptionSchema = Type.Object({
  text: Type.String(),
  language: Type.Union([Type.String(), Type.Null()]),
  durationSeconds: Type.Union([Type.Number(), Type.Null()]),
  model: Type.String(),
  requestId: Type.String(),
});
