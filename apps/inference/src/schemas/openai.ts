import { Type } from '@platform/core';

/**
 * OpenAI's request and response bodies, as far as the compatible routes read and write them.
 * Objects accept fields beyond those listed (OpenAI adds fields often): a field the service does
 * not honour is refused by name (400 Unsupported parameter), never dropped.
 */
const Open = { additionalProperties: true } as const;
const Model = Type.String({ minLength: 1, maxLength: 300, title: 'model' });
const Routing = {
  providerId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Platform extension: the provider (id or name) to call',
    }),
  ),
  fallbacks: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
      maxItems: 5,
      description:
        'Platform extension: models tried in order when the model fails before any output',
    }),
  ),
};

const ContentPart = Type.Object({ type: Type.String({ maxLength: 50 }) }, Open);
const Message = Type.Object(
  {
    role: Type.String({ maxLength: 20, description: 'system, developer, user, assistant or tool' }),
    content: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 1_000_000 }),
        Type.Array(ContentPart, { maxItems: 500 }),
        Type.Null(),
      ]),
    ),
    tool_calls: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.String({ maxLength: 200 }),
            type: Type.Optional(Type.String()),
            function: Type.Object(
              {
                name: Type.String({ maxLength: 200 }),
                arguments: Type.Optional(Type.String({ maxLength: 1_000_000 })),
              },
              Open,
            ),
          },
          Open,
        ),
        { maxItems: 128 },
      ),
    ),
    tool_call_id: Type.Optional(Type.String({ maxLength: 200 })),
  },
  Open,
);
const Tool = Type.Object(
  {
    type: Type.String({ maxLength: 50 }),
    function: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200 }),
        description: Type.Optional(Type.String({ maxLength: 100_000 })),
        parameters: Type.Optional(Type.Object({}, Open)),
        strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
      },
      Open,
    ),
  },
  Open,
);
const Num = (min: number, max: number) =>
  Type.Optional(Type.Union([Type.Number({ minimum: min, maximum: max }), Type.Null()]));
const Int = (min: number, max: number) =>
  Type.Optional(Type.Union([Type.Integer({ minimum: min, maximum: max }), Type.Null()]));

export const ChatCompletionInputSchema = Type.Object(
  {
    model: Model,
    messages: Type.Array(Message, { minItems: 1, maxItems: 1000 }),
    max_tokens: Int(1, 1_000_000),
    max_completion_tokens: Int(1, 1_000_000),
    temperature: Num(0, 2),
    top_p: Num(0, 1),
    stop: Type.Optional(
      Type.Union([
        Type.String({ maxLength: 1000 }),
        Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 4 }),
        Type.Null(),
      ]),
    ),
    seed: Int(-9_007_199_254_740_991, 9_007_199_254_740_991),
    presence_penalty: Num(-2, 2),
    frequency_penalty: Num(-2, 2),
    tools: Type.Optional(Type.Array(Tool, { maxItems: 128 })),
    tool_choice: Type.Optional(
      Type.Union([Type.String({ maxLength: 20 }), Type.Object({}, Open), Type.Null()]),
    ),
    response_format: Type.Optional(
      Type.Union([Type.Object({ type: Type.String({ maxLength: 20 }) }, Open), Type.Null()]),
    ),
    stream: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    stream_options: Type.Optional(
      Type.Union([
        Type.Object({ include_usage: Type.Optional(Type.Boolean()) }, Open),
        Type.Null(),
      ]),
    ),
    n: Int(1, 128),
    user: Type.Optional(Type.String({ maxLength: 300 })),
    ...Routing,
  },
  Open,
);

export const ChatCompletionSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.String({
      description: 'chat.completion (or chat.completion.chunk events when streamed)',
    }),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(Type.Object({}, Open)),
    usage: Type.Object({
      prompt_tokens: Type.Integer(),
      completion_tokens: Type.Integer(),
      total_tokens: Type.Integer(),
    }),
  },
  Open,
);

export const EmbeddingsInputSchema = Type.Object(
  {
    model: Model,
    input: Type.Union([
      Type.String({ maxLength: 1_000_000 }),
      Type.Array(Type.String({ maxLength: 1_000_000 }), { minItems: 1, maxItems: 2048 }),
    ]),
    encoding_format: Type.Optional(Type.Union([Type.Literal('float'), Type.Literal('base64')])),
    dimensions: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    user: Type.Optional(Type.String({ maxLength: 300 })),
    providerId: Routing.providerId,
  },
  Open,
);

export const EmbeddingsSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      object: Type.Literal('embedding'),
      index: Type.Integer(),
      embedding: Type.Union([Type.Array(Type.Number()), Type.String()]),
    }),
  ),
  model: Type.String(),
  usage: Type.Object({ prompt_tokens: Type.Integer(), total_tokens: Type.Integer() }),
});

export const OpenAIModelsSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      object: Type.Literal('model'),
      created: Type.Integer(),
      owned_by: Type.String(),
    }),
  ),
});

export const ImageGenerationInputSchema = Type.Object(
  {
    prompt: Type.String({ minLength: 1, maxLength: 32_000 }),
    model: Type.Optional(Model),
    n: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    size: Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,4}x[1-9][0-9]{0,4}|auto)$' })),
    response_format: Type.Optional(Type.Union([Type.Literal('b64_json'), Type.Literal('url')])),
    user: Type.Optional(Type.String({ maxLength: 300 })),
    providerId: Routing.providerId,
  },
  Open,
);

export const ImagesResponseSchema = Type.Object({
  created: Type.Integer(),
  data: Type.Array(Type.Object({ b64_json: Type.String() })),
});

export const TranscriptionInputSchema = Type.Object(
  {
    file: Type.Unknown({ description: 'The audio file (multipart/form-data)' }),
    model: Model,
    language: Type.Optional(Type.String({ minLength: 2, maxLength: 10 })),
    response_format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('text'), Type.Literal('verbose_json')]),
    ),
    providerId: Routing.providerId,
  },
  Open,
);

export const TranscriptionResponseSchema = Type.Object(
  {
    text: Type.String(),
    language: Type.Optional(Type.String()),
    duration: Type.Optional(Type.Number()),
  },
  Open,
);

/**
 * OpenAI's error body: what every error of these routes is (`type`, `param` and `code` are always
 * written; the schema lets the platform's envelope through on its way to being converted).
 */
export const OpenAIErrorSchema = Type.Object(
  {
    error: Type.Object(
      {
        message: Type.String(),
        type: Type.Optional(Type.String()),
        param: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        code: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      },
      Open,
    ),
  },
  Open,
);
