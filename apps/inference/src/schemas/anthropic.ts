import { Type } from '@platform/core';

/**
 * Anthropic's request and response bodies, as far as the compatible routes read and write them.
 * Objects accept fields beyond those listed: one the service does not honour is refused by name
 * (400 Unsupported parameter), never dropped.
 */
const Open = { additionalProperties: true } as const;
const Block = Type.Object({ type: Type.String({ maxLength: 50 }) }, Open);
const Content = Type.Union([
  Type.String({ maxLength: 1_000_000 }),
  Type.Array(Block, { maxItems: 500 }),
]);
const Message = Type.Object(
  { role: Type.String({ maxLength: 20, description: 'user or assistant' }), content: Content },
  Open,
);
const Tool = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 100_000 })),
    input_schema: Type.Optional(Type.Object({}, Open)),
  },
  Open,
);

const Common = {
  model: Type.String({ minLength: 1, maxLength: 300, title: 'model' }),
  messages: Type.Array(Message, { minItems: 1, maxItems: 1000 }),
  system: Type.Optional(Content),
  tools: Type.Optional(Type.Array(Tool, { maxItems: 128 })),
  tool_choice: Type.Optional(Type.Object({ type: Type.String({ maxLength: 20 }) }, Open)),
  providerId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Platform extension: the provider (id or name) to call',
    }),
  ),
};

export const MessagesInputSchema = Type.Object(
  {
    ...Common,
    max_tokens: Type.Integer({ minimum: 1, maximum: 1_000_000, title: 'max_tokens' }),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    stop_sequences: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 16 })),
    stream: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(Type.Object({}, Open)),
    fallbacks: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
        maxItems: 5,
        description:
          'Platform extension: models tried in order when the model fails before any output',
      }),
    ),
  },
  Open,
);

export const MessageSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('message'),
    role: Type.Literal('assistant'),
    model: Type.String(),
    content: Type.Array(Type.Object({ type: Type.String() }, Open)),
    stop_reason: Type.String(),
    stop_sequence: Type.Null(),
    usage: Type.Object({ input_tokens: Type.Integer(), output_tokens: Type.Integer() }),
  },
  Open,
);

export const CountTokensInputSchema = Type.Object(Common, Open);
export const CountTokensSchema = Type.Object({ input_tokens: Type.Integer() });

/** Anthropic's error body (the schema lets the envelope through on its way to being converted). */
export const AnthropicErrorSchema = Type.Object(
  {
    type: Type.Optional(Type.String()),
    error: Type.Object({ type: Type.Optional(Type.String()), message: Type.String() }, Open),
  },
  Open,
);
