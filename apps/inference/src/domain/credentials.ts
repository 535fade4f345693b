import { badRequest, type Env } from '@platform/core';
import { normaliseBaseUrl, type InferenceConfig } from '../config.js';

/** Each type's official API: where its key may always go, and its baseUrl by default. */
export const DEFAULT_BASE_URLS: Record<string, string> = {
  anthropic: 'https://api.anthropic.com/v1',
  openai: 'https://api.openai.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  openrouter: 'https://openrouter.ai/api/v1',
};

/** The providers' own variable names; anything else must start with INFERENCE_KEY_. */
export const STANDARD_KEY_VARS = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GEMINI_API_KEY',
  'OPENROUTER_API_KEY',
];
const OWN_KEY_VAR = /^INFERENCE_KEY_[A-Z0-9_]+$/;
const ENV_VAR_RULE = `envVar must be one of ${STANDARD_KEY_VARS.join(', ')}, or start with INFERENCE_KEY_ (e.g. INFERENCE_KEY_VLLM)`;

/** envVar names a provider key's variable, never any other of the service's environment. */
export function checkEnvVar(name: string) {
  if (!STANDARD_KEY_VARS.includes(name) && !OWN_KEY_VAR.test(name))
    throw badRequest(`${ENV_VAR_RULE}, got ${name}`);
}

// C0 controls and DEL: never part of a model name (and U+0000 is refused by PostgreSQL text).
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A model name the caller (or a provider's defaultModel) gives: no control characters. */
export function checkModelName(field: string, value: string) {
  if (CONTROL.test(value)) throw badRequest(`${field} must not contain control characters`);
}

/**
 * The base URL a provider's key may be sent to: its type's official API (the default) or one
 * listed in INFERENCE_BASE_URLS, compared normalised; anything else is a 400 naming the variable.
 * Checked when a provider is written and again before every call (the list may have changed).
 */
export function allowedBaseUrl(
  config: Pick<InferenceConfig, 'baseUrls'>,
  type: string,
  raw: string | null,
): string {
  const official = DEFAULT_BASE_URLS[type];
  if (raw === null || raw === '') {
    if (type === 'mock') return '';
    if (official) return official;
    throw badRequest(
      `baseUrl is required for a provider of type ${type}: one of the URLs listed in INFERENCE_BASE_URLS`,
    );
  }
  let url: string;
  try {
    url = normaliseBaseUrl(raw);
  } catch (error) {
    throw badRequest(`baseUrl ${(error as Error).message}`);
  }
  // The mock calls no one: its baseUrl is only kept.
  if (type !== 'mock' && url !== official && !config.baseUrls.includes(url))
    throw badRequest(
      `baseUrl ${url} is not allowed: provider keys are sent only to the type's official API${official ? ` (${official})` : ''} and to the URLs listed in INFERENCE_BASE_URLS`,
    );
  return url;
}

/** The key, read at call time; 400 naming the variable when it is unset. */
export function readKey(
  env: Env,
  provider: { name: string; type: string; env_var: string | null },
) {
  if (provider.type === 'mock') return '';
  const name = provider.env_var ?? '';
  // Rows written before the rule: the variable is checked again before it is read.
  checkEnvVar(name);
  const value = env[name]?.trim();
  if (!value)
    throw badRequest(
      `Provider ${provider.name} needs its API key in the environment variable ${name}, which is not set`,
    );
  return value;
}
