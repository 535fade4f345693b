import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { EmbeddingModel, ImageModel, TranscriptionModel } from 'ai';
import { badRequest } from '@platform/core';
import type { ProviderRow } from '../database.js';
import { DEFAULT_BASE_URLS } from './credentials.js';
import { providerFetch as fetch } from './http-fetch.js';
import { mockLanguageModel } from './mock.js';

export const baseUrlOf = (provider: ProviderRow) =>
  provider.base_url ?? DEFAULT_BASE_URLS[provider.type] ?? '';

const unsupported = (provider: ProviderRow, what: string) =>
  badRequest(`Provider ${provider.name} (type ${provider.type}) does not offer ${what}`);

/** The provider types that offer each kind of call besides chat (mock offers all). */
const OFFERED: Record<string, { types: string[]; what: string }> = {
  embed: {
    types: ['openai', 'openai-compatible', 'google', 'openrouter', 'mock'],
    what: 'embeddings',
  },
  image: { types: ['openai', 'openai-compatible', 'google', 'mock'], what: 'image generation' },
  transcribe: { types: ['openai', 'mock'], what: 'transcription' },
};

/** 400 before anything is called (nor logged) when the provider does not offer `kind`. */
export function checkOffers(provider: ProviderRow, kind: string) {
  const offered = OFFERED[kind];
  if (offered && !offered.types.includes(provider.type)) throw unsupported(provider, offered.what);
}

/** The AI SDK provider of a row, configured with its base URL and key (cached per key and URL). */
function sdk(provider: ProviderRow, apiKey: string) {
  const baseURL = baseUrlOf(provider);
  switch (provider.type) {
    case 'anthropic':
      return { kind: 'anthropic', p: createAnthropic({ baseURL, apiKey, fetch }) } as const;
    case 'openai':
      return { kind: 'openai', p: createOpenAI({ baseURL, apiKey, fetch }) } as const;
    case 'google':
      return { kind: 'google', p: createGoogleGenerativeAI({ baseURL, apiKey, fetch }) } as const;
    case 'openrouter':
      return { kind: 'openrouter', p: createOpenRouter({ baseURL, apiKey, fetch }) } as const;
    case 'openai-compatible':
      return {
        kind: 'compatible',
        p: createOpenAICompatible({
          name: provider.name,
          baseURL,
          apiKey,
          includeUsage: true,
          fetch,
        }),
      } as const;
    default:
      throw unsupported(provider, 'this');
  }
}

// The SDK's warnings (e.g. a model it does not know) go to the console on every call otherwise.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const cache = new Map<string, ReturnType<typeof sdk>>();
const keyOf = (provider: ProviderRow, apiKey: string) =>
  `${provider.type}\n${baseUrlOf(provider)}\n${provider.name}\n${apiKey}`;
function cached(provider: ProviderRow, apiKey: string) {
  const key = keyOf(provider, apiKey);
  let entry = cache.get(key);
  if (!entry) {
    if (cache.size > 100) cache.clear();
    entry = sdk(provider, apiKey);
    cache.set(key, entry);
  }
  return entry;
}

// Language models too: building one (its response schemas) costs more than a call's own work.
const models = new Map<string, LanguageModelV4>();

export function languageModel(
  provider: ProviderRow,
  apiKey: string,
  model: string,
): LanguageModelV4 {
  if (provider.type === 'mock') return mockLanguageModel(model);
  const key = `${keyOf(provider, apiKey)}\n${model}`;
  let entry = models.get(key);
  if (!entry) {
    if (models.size > 1000) models.clear();
    entry = newLanguageModel(cached(provider, apiKey), model);
    models.set(key, entry);
  }
  return entry;
}

function newLanguageModel(s: ReturnType<typeof sdk>, model: string): LanguageModelV4 {
  // OpenAI's chat completions (the wire format every OpenAI-compatible server speaks).
  if (s.kind === 'openai') return s.p.chat(model);
  if (s.kind === 'compatible') return s.p.chatModel(model);
  if (s.kind === 'openrouter') return s.p.chat(model);
  return s.p.languageModel(model);
}

export function embeddingModel(
  provider: ProviderRow,
  apiKey: string,
  model: string,
): EmbeddingModel {
  const s = cached(provider, apiKey);
  if (s.kind === 'openai') return s.p.embedding(model);
  if (s.kind === 'compatible') return s.p.embeddingModel(model);
  if (s.kind === 'google') return s.p.embedding(model);
  if (s.kind === 'openrouter') return s.p.textEmbeddingModel(model) as unknown as EmbeddingModel;
  throw unsupported(provider, 'embeddings');
}

/** `dimensions` as each provider package takes it; a 400 naming it for a provider that has none. */
export function dimensionsOption(
  route: { provider: ProviderRow },
  dimensions: number | undefined,
): Record<string, Record<string, number>> | undefined {
  if (dimensions === undefined) return undefined;
  const { type, name } = route.provider;
  if (type === 'openai') return { openai: { dimensions } };
  if (type === 'openai-compatible') return { [name]: { dimensions } };
  if (type === 'google') return { google: { outputDimensionality: dimensions } };
  throw badRequest(
    `Unsupported parameter: dimensions is not supported by provider ${name} (type ${type})`,
  );
}

export function imageModel(provider: ProviderRow, apiKey: string, model: string): ImageModel {
  const s = cached(provider, apiKey);
  if (s.kind === 'openai') return s.p.image(model);
  if (s.kind === 'compatible') return s.p.imageModel(model);
  if (s.kind === 'google') return s.p.image(model);
  throw unsupported(provider, 'image generation');
}

export function transcriptionModel(
  provider: ProviderRow,
  apiKey: string,
  model: string,
): TranscriptionModel {
  const s = cached(provider, apiKey);
  if (s.kind === 'openai') return s.p.transcription(model);
  throw unsupported(provider, 'transcription');
}
