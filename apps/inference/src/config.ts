import {
  envBaseUrls,
  envInt,
  normaliseBaseUrl as normaliseUrl,
  type Env,
  type Variable,
} from '@platform/core';

/** A provider base URL as compared with the official ones and INFERENCE_BASE_URLS. */
export const normaliseBaseUrl = (raw: string) => normaliseUrl(raw, 'any');

export const INFERENCE_VARIABLES: readonly Variable[] = [
  {
    name: 'INFERENCE_TIMEOUT_MS',
    default: '120000',
    description:
      'Time limit of one inference call (all attempts and fallbacks included), in ms; beyond it 504 or a stream error event',
  },
  {
    name: 'INFERENCE_MAX_ATTEMPTS',
    default: '3',
    description:
      'Attempts per model (the first included) on 429, 5xx or overloaded answers, before any output was sent; Retry-After is honoured',
  },
  {
    name: 'INFERENCE_TRANSCRIBE_MAX_BYTES',
    default: '26214400',
    description:
      'Largest audio file POST /transcribe accepts (25 MiB), as multipart or base64 JSON',
  },
  {
    name: 'INFERENCE_BASE_URLS',
    default: "empty (only each type's official API)",
    description:
      "Comma-separated http(s) base URLs a provider's baseUrl may name besides its type's official API (vLLM, Ollama, a proxy); provider keys are sent nowhere else. openai-compatible providers need one",
  },
  {
    name: '<provider envVar>',
    default: 'unset',
    description:
      "The variable holding a provider's API key, read at call time, never stored or returned: OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY, or a name starting with INFERENCE_KEY_ (e.g. INFERENCE_KEY_VLLM)",
  },
];

export function inferenceConfig(env: Env) {
  return {
    timeoutMs: envInt(env, 'INFERENCE_TIMEOUT_MS', 120_000, { min: 100, max: 3_600_000 }),
    maxAttempts: envInt(env, 'INFERENCE_MAX_ATTEMPTS', 3, { min: 1, max: 10 }),
    transcribeMaxBytes: envInt(env, 'INFERENCE_TRANSCRIBE_MAX_BYTES', 25 * 1024 * 1024, {
      min: 1024,
      max: 1024 * 1024 * 1024,
    }),
    /** Base URLs allowed besides each type's official API (normalised). */
    baseUrls: envBaseUrls(env, 'INFERENCE_BASE_URLS', 'any'),
    /** The environment itself: provider credentials are read from it at call time. */
    env,
  };
}

export type InferenceConfig = ReturnType<typeof inferenceConfig>;
