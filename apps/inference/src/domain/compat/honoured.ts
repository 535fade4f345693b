import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { badRequest } from '@platform/core';
import type { Generation } from '../chat-model.js';
import { hasOptions } from '../chat-model.js';
import type { Route } from '../routing.js';
import { languageModel } from '../sdk.js';

/** A generation's option, named as the caller's wire format names it. */
export type ParamNames = Partial<Record<keyof Generation | 'images', string>>;

/**
 * What a provider type drops without a warning of the AI SDK (its package never reads it): the
 * rest is read from the package's own warnings (below). The mock answers text only.
 */
const SILENTLY_DROPPED: Record<string, Array<keyof Generation>> = {
  openrouter: ['topK'],
  mock: ['tools', 'toolChoice', 'responseFormat'],
};

/** The AI SDK's `unsupported` warning features, as the generation's options. */
function optionOf(feature: string): keyof Generation | undefined {
  if (feature === 'strict' || /^(function )?tool /.test(feature)) return 'tools';
  const known: Array<keyof Generation> = [
    'maxOutputTokens',
    'temperature',
    'topP',
    'topK',
    'stopSequences',
    'seed',
    'presencePenalty',
    'frequencyPenalty',
    'tools',
    'toolChoice',
    'responseFormat',
  ];
  return known.find((k) => k === feature);
}

type Preparing = LanguageModelV4 & {
  getArgs?: (options: LanguageModelV4CallOptions) => unknown;
};
type Warning = { type: string; feature?: string; details?: string };

const refuse = (param: string, route: Route, why?: string) =>
  badRequest(
    `Unsupported parameter: ${param} is not supported by model ${route.requested} on provider ${route.provider.name} (type ${route.provider.type})${why ? `: ${why}` : ''}`,
  );

/** Whether the model fetches an image URL itself (its `supportedUrls`). */
async function fetchesUrl(model: LanguageModelV4, url: URL): Promise<boolean> {
  const supported = await model.supportedUrls;
  return Object.entries(supported).some(
    ([type, patterns]) =>
      (type === '*' || type.startsWith('image/')) && patterns.some((p) => p.test(url.href)),
  );
}

/**
 * A 400 naming the first option a route's provider cannot honour, before anything is called:
 * what its AI SDK package would drop with an `unsupported` warning (the package prepares the
 * request without sending it), what it drops silently (the table above), an image URL it would
 * not fetch, and a prompt it cannot express (UnsupportedFunctionalityError). Every route is
 * checked (the model and its fallbacks). Nothing is checked for a plain chat.
 */
export async function checkHonoured(
  routes: Route[],
  keyOf: (route: Route) => string,
  generation: Generation,
  names: ParamNames,
) {
  if (!hasOptions(generation)) return;
  const name = (option: keyof Generation) => names[option] ?? option;
  for (const route of routes) {
    for (const option of SILENTLY_DROPPED[route.provider.type] ?? [])
      if (generation[option] !== undefined) throw refuse(name(option), route);
    const model = languageModel(route.provider, keyOf(route), route.model) as Preparing;
    for (const message of generation.prompt)
      if (message.role === 'user')
        for (const part of message.content)
          if (
            part.type === 'file' &&
            part.data.type === 'url' &&
            !(await fetchesUrl(model, part.data.url))
          )
            throw refuse(
              names.images ?? 'image URL',
              route,
              'it does not fetch image URLs; send the image as a base64 data: URL',
            );
    if (typeof model.getArgs !== 'function') continue;
    let prepared: { warnings?: Warning[] } | undefined;
    try {
      prepared = (await model.getArgs.call(model, {
        ...generation,
        // What Anthropic's package reads besides the options (its beta headers); no one else.
        userSuppliedBetas: new Set(),
        stream: false,
      } as LanguageModelV4CallOptions)) as { warnings?: Warning[] } | undefined;
    } catch (error) {
      if (UnsupportedFunctionalityError.isInstance(error)) throw refuse(error.functionality, route);
      continue; // anything else surfaces (and is classified) when the call is made
    }
    for (const warning of prepared?.warnings ?? []) {
      if (warning.type !== 'unsupported' || !warning.feature) continue;
      const option = optionOf(warning.feature);
      if (option && generation[option] !== undefined)
        throw refuse(name(option), route, warning.details);
    }
  }
}
