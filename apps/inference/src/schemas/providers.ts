import { Name, Nullable, Stamps, stamps, Type, type Static } from '@platform/core';
import type { ProviderRow } from '../database.js';

export const PROVIDER_TYPES = [
  'anthropic',
  'openai',
  'google',
  'openrouter',
  'openai-compatible',
  'mock',
] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

const ProviderType = Type.Union(
  PROVIDER_TYPES.map((t) => Type.Literal(t)),
  { title: 'type', description: `One of ${PROVIDER_TYPES.join(', ')}` },
);
const Model = Type.String({ minLength: 1, maxLength: 200, title: 'defaultModel' });
const EnvVar = Type.String({
  minLength: 1,
  maxLength: 100,
  title: 'envVar',
  description:
    'Name of the environment variable holding the API key: OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY, or INFERENCE_KEY_<NAME>; read at call time, never stored',
});
const BaseUrl = Type.String({
  minLength: 1,
  maxLength: 2000,
  title: 'baseUrl',
  description:
    "Base URL of the provider's API: its type's official API (the default) or one listed in INFERENCE_BASE_URLS; required for openai-compatible",
});

const Weight = Nullable(
  Type.Integer({
    minimum: 0,
    maximum: 1000,
    title: 'weight',
    description:
      "Load balancing: this provider's share of the calls routed by model name to its type, among the providers of that type with a weight (0: none by model name; null, the default: not balanced, the oldest provider of a type without weights serves). A provider failing a call (429, 5xx, overloaded, no answer) is skipped for INFERENCE_COOLDOWN_MS by every instance",
  }),
);

export const ProviderSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  defaultModel: Type.String(),
  envVar: Nullable(Type.String(), { description: 'null for mock' }),
  baseUrl: Nullable(Type.String()),
  weight: Weight,
  ...Stamps,
});
export type Provider = Static<typeof ProviderSchema>;

export const toProvider = (row: ProviderRow): Provider => ({
  id: row.id,
  name: row.name,
  type: row.type,
  defaultModel: row.default_model,
  envVar: row.env_var,
  baseUrl: row.base_url,
  weight: row.weight,
  ...stamps(row.created_at, row.updated_at),
});

export const ProviderInputSchema = Type.Object({
  name: Name('provider name'),
  type: ProviderType,
  defaultModel: Model,
  envVar: Type.Optional(Nullable(EnvVar)),
  baseUrl: Type.Optional(Nullable(BaseUrl)),
  weight: Type.Optional(Weight),
});

export const ProviderUpdateSchema = Type.Object({
  name: Type.Optional(Name('provider name')),
  type: Type.Optional(ProviderType),
  defaultModel: Type.Optional(Model),
  envVar: Type.Optional(Nullable(EnvVar)),
  baseUrl: Type.Optional(Nullable(BaseUrl)),
  weight: Type.Optional(Weight),
});
