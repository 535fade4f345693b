import { badRequest, notFound } from '@platform/core';
import type { ProviderRow } from '../database.js';
import { poolOf } from './balancing.js';
import { checkModelName } from './credentials.js';
import type { ProviderRegistry } from './registry.js';

export interface Route {
  provider: ProviderRow;
  /** The model as the provider knows it (an OpenRouter prefix taken off). */
  model: string;
  /** The model as the caller named it, for the log. */
  requested: string;
  /** The providers sharing this model's calls by weight (load balancing), when it has several. */
  pool?: readonly ProviderRow[];
  /** One of a pool's providers: left out, rather than failing the call, when it cannot be used. */
  pooled?: boolean;
}

/** The provider type a model name belongs to (spec 4.10), and the name the provider gets. */
function typeOf(model: string): string | undefined {
  if (model.startsWith('claude')) return 'anthropic';
  if (
    model.startsWith('gpt-') ||
    model.startsWith('text-embedding-3') ||
    ['gpt-image-1', 'dall-e-3', 'whisper-1'].includes(model)
  )
    return 'openai';
  if (model.startsWith('gemini') || model === 'text-embedding-004') return 'google';
  if (model.startsWith('mock')) return 'mock';
  return undefined;
}

/**
 * The provider and model of a call: `providerId` (id or name) when given, with its default model
 * when no model is named (absent or ''); else chosen from the model name. A model name with a
 * control character is a 400.
 */
export async function resolveRoute(
  providers: ProviderRegistry,
  model: string | undefined,
  providerId: string | undefined,
  field = 'model',
): Promise<Route> {
  if (model) checkModelName(field, model);
  if (providerId !== undefined) {
    const provider = await providers.byIdOrName(providerId);
    if (!provider) throw notFound('Provider', providerId);
    const chosen = model || provider.default_model;
    if (!chosen) throw badRequest('model is required');
    return { provider, model: chosen, requested: chosen };
  }
  if (model === undefined || model === '') throw badRequest('model is required');
  const slash = model.indexOf('/');
  if (slash > 0) {
    // `<openrouter provider name>/<model>`, or `openrouter/<model>` for the first one.
    const prefix = model.slice(0, slash);
    const provider =
      (await providers.ofType('openrouter', prefix)) ??
      (prefix.toLowerCase() === 'openrouter' ? await providers.ofType('openrouter') : undefined);
    if (provider) return { provider, model: model.slice(slash + 1), requested: model };
  }
  const type = typeOf(model);
  if (!type)
    throw badRequest(
      `No provider serves model ${model}: name a providerId, or a model of a known family (claude*, gpt-*, gemini*, <openrouter provider>/...)`,
    );
  const pool = poolOf(await providers.all(), type);
  if (pool?.length) return { provider: pool[0], model, requested: model, pool };
  const provider = pool ? undefined : await providers.ofType(type);
  if (!provider)
    throw badRequest(
      `Model ${model} needs a provider of type ${type}, and none is configured${pool ? ' with a weight above 0' : ''}`,
    );
  return { provider, model, requested: model };
}
