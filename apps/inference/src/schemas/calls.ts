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

const Part = Type.Union([
  Type.Object({ type: Type.Literal('text'), text: Type.String({ maxLength: 1_000_000 }) }),
  Type.Object({
    type: Type.Literal('image'),
    url: Type.String({ maxLength: 20_000_000, description: 'http(s), or data:image/...;base64,' }),
  }),
  Type.Object({
    type: Type.Literal('tool-call'),
    id: Type.String({ minLength: 1, maxLength: 200 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    input: Type.Unknown(),
  }),
  Type.Object({
    type: Type.Literal('tool-result'),
    id: Type.String({ minLength: 1, maxLength: 200 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    output: Type.String({ maxLength: 1_000_000 }),
    isError: Type.Optional(Type.Boolean()),
  }),
]);

/**
 * The generation's options, the same the OpenAI- and Anthropic-compatible routes take: a
 * parameter the chosen provider cannot honour is a 400 naming it, before anything is called.
 */
const GenerationOptions = {
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2, title: 'temperature' })),
  topP: Type.Optional(Type.Number({ minimum: 0, maximum: 1, title: 'topP' })),
  topK: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, title: 'topK' })),
  stop: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { maxItems: 16, title: 'stop' }),
  ),
  seed: Type.Optional(Type.Integer({ title: 'seed' })),
  presencePenalty: Type.Optional(
    Type.Number({ minimum: -2, maximum: 2, title: 'presencePenalty' }),
  ),
  frequencyPenalty: Type.Optional(
    Type.Number({ minimum: -2, maximum: 2, title: 'frequencyPenalty' }),
  ),
  tools: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' }),
        description: Type.Optional(Type.String({ maxLength: 100_000 })),
        parameters: Type.Optional(
          Type.Object({}, { additionalProperties: true, description: 'JSON schema of the input' }),
        ),
      }),
      { maxItems: 128, title: 'tools' },
    ),
  ),
  toolChoice: Type.Optional(
    Type.Union(
      [
        Type.Literal('auto'),
        Type.Literal('none'),
        Type.Literal('required'),
        Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }),
      ],
      { title: 'toolChoice' },
    ),
  ),
  responseFormat: Type.Optional(
    Type.Union(
      [
        Type.Object({ type: Type.Literal('text') }),
        Type.Object({
          type: Type.Literal('json'),
          schema: Type.Optional(Type.Object({}, { additionalProperties: true })),
          name: Type.Optional(Type.String({ maxLength: 200 })),
          description: Type.Optional(Type.String({ maxLength: 10_000 })),
        }),
      ],
      { title: 'responseFormat', description: 'JSON mode (no schema) or JSON schema output' },
    ),
  ),
};

export const ChatInputSchema = Type.Object({
  model: Type.Optional(ModelName),
  messages: Type.Array(
    Type.Object({
      role: Type.Union(
        [
          Type.Literal('system'),
          Type.Literal('user'),
          Type.Literal('assistant'),
          Type.Literal('tool'),
        ],
        { title: 'role' },
      ),
      content: Type.Union(
        [Type.String({ maxLength: 1_000_000 }), Type.Array(Part, { minItems: 1, maxItems: 500 })],
        {
          title: 'content',
          description:
            'Text, or parts: text, image (user), tool-call (assistant), tool-result (tool)',
        },
      ),
    }),
    { minItems: 1, maxItems: 1000, title: 'messages' },
  ),
  maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, title: 'maxTokens' })),
  ...GenerationOptions,
  providerId: Type.Optional(ProviderId),
  fallbacks: Type.Optional(Fallbacks),
});

export const UsageSchema = Type.Object({
  inputTokens: Type.Integer(),
  outputTokens: Type.Integer(),
});

export const ChatSchema = Type.Object({
  content: Type.String(),
  toolCalls: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        input: Type.String({ description: 'The JSON the model wrote' }),
      }),
    ),
  ),
  finishReason: Type.Optional(
    Type.String({ description: 'stop, length, tool-calls, content-filter, other' }),
  ),
  model: Type.String(),
  usage: UsageSchema,
  requestId: Type.String({ description: 'The request log entry: GET /requests/:id' }),
});

export const EmbedInputSchema = Type.Object({
  model: Type.Optional(ModelName),
  input: Type.String({ minLength: 1, maxLength: 1_000_000, title: 'input' }),
  dimensions: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100_000,
      title: 'dimensions',
      description: 'OpenAI, OpenAI-compatible and Google providers; a 400 elsewhere',
    }),
  ),
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
