import { named } from '@platform/core';
import { compatChat } from '../domain/compat/chat.js';
import { speakErrors } from '../domain/compat/errors.js';
import {
  fromOpenAIChat,
  OPENAI_NAMES,
  type OpenAIChatRequest,
} from '../domain/compat/openai-request.js';
import { openAICompletion, openAIWriter } from '../domain/compat/openai-response.js';
import {
  COMPAT_BODY_LIMIT,
  COMPAT_INVOKE,
  COMPAT_LIST,
  OPENAI_TAG,
} from '../domain/compat/access.js';
import { MOCK_MODELS } from '../domain/mock.js';
import type { InferenceRoutes } from '../domain/state.js';
import { listModels } from '../repositories/models.js';
import {
  ChatCompletionInputSchema,
  ChatCompletionSchema,
  OpenAIErrorSchema,
  OpenAIModelsSchema,
} from '../schemas/openai.js';

/** The answers of an OpenAI-compatible route: `ok`, and OpenAI's error body for every error. */
const openAIResponses = <T>(ok: T) => ({
  200: ok,
  '4xx': OpenAIErrorSchema,
  '5xx': OpenAIErrorSchema,
});

/**
 * OpenAI's chat completions and model list under `/openai/v1` (point an OpenAI SDK's `baseURL`
 * there): the platform's routing, retries, fallbacks and request log behind OpenAI's wire format.
 */
export const openAIRoutes: InferenceRoutes = async (app, ctx) => {
  await app.register(
    named(async (scope) => {
      speakErrors(scope, 'openai', { notFound: true });
      scope.post(
        '/chat/completions',
        {
          // Images travel inline (base64): more room than the platform's 1 MiB default.
          bodyLimit: COMPAT_BODY_LIMIT,
          config: { access: COMPAT_INVOKE },
          schema: {
            tags: [OPENAI_TAG],
            operationId: 'openaiChatCompletions',
            summary: 'Chat completion (OpenAI-compatible)',
            description:
              "OpenAI `POST /v1/chat/completions`: messages with images (image_url, http(s) or data:), tools and tool results, temperature, top_p, stop, max_tokens / max_completion_tokens, seed, penalties, response_format (json_object, json_schema). `stream: true` answers `chat.completion.chunk` events ending in `data: [DONE]`, with a usage chunk when `stream_options.include_usage`. Any model the platform routes (claude*, gemini*, ...): a parameter the chosen provider cannot honour is a 400 naming it (`param`). Errors are in OpenAI's shape. Platform extensions: `providerId`, `fallbacks`.",
            body: ChatCompletionInputSchema,
            response: openAIResponses(ChatCompletionSchema),
          },
        },
        async (request, reply) => {
          const body = request.body as OpenAIChatRequest & {
            stream?: boolean;
            stream_options?: { include_usage?: boolean };
            providerId?: string;
            fallbacks?: string[];
          };
          const generation = fromOpenAIChat(body);
          const includeUsage = body.stream_options?.include_usage === true;
          const answer = await compatChat(
            ctx,
            request,
            reply,
            {
              route: { model: body.model, providerId: body.providerId, fallbacks: body.fallbacks },
              generation,
              stream: body.stream === true,
              logText: JSON.stringify(body.messages),
            },
            {
              names: OPENAI_NAMES,
              answer: openAICompletion,
              writer: (model, id) => openAIWriter(model, id, includeUsage),
            },
          );
          return answer ?? reply;
        },
      );

      scope.get(
        '/models',
        {
          config: { access: COMPAT_LIST },
          schema: {
            tags: [OPENAI_TAG],
            operationId: 'openaiListModels',
            summary: 'List models (OpenAI-compatible)',
            description:
              "OpenAI `GET /v1/models`: each provider's default model, the models synced from the providers (`POST /models/sync`; an OpenRouter provider's as `<provider name>/<model>`), and the mock's.",
            response: openAIResponses(OpenAIModelsSchema),
          },
        },
        async () => {
          const providers = await ctx.state.providers.all();
          const byId = new Map(providers.map((p) => [p.id, p]));
          const seen = new Map<
            string,
            { id: string; object: 'model'; created: number; owned_by: string }
          >();
          const add = (id: string, owner: string, at: Date) =>
            seen.has(id) ||
            seen.set(id, {
              id,
              object: 'model',
              created: Math.floor(at.getTime() / 1000),
              owned_by: owner,
            });
          for (const p of providers) {
            if (p.default_model) add(p.default_model, p.name, p.created_at);
            if (p.type === 'mock') for (const m of MOCK_MODELS) add(m, p.name, p.created_at);
          }
          for (const m of await listModels(ctx.db, undefined, { limit: 1000, offset: 0 })) {
            const provider = byId.get(m.provider_id);
            add(
              provider?.type === 'openrouter' ? `${m.provider}/${m.name}` : m.name,
              m.provider,
              m.created_at,
            );
          }
          return { object: 'list' as const, data: [...seen.values()] };
        },
      );
    }),
    { prefix: '/openai/v1' },
  );
};
