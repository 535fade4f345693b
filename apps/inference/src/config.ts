import { declareVariables, normaliseBaseUrl as normaliseUrl, Var, type Env } from '@platform/core';

/** A provider base URL as compared with the official ones and INFERENCE_BASE_URLS. */
export const normaliseBaseUrl = (raw: string) => normaliseUrl(raw, 'any');

const VARIABLES = declareVariables({
  INFERENCE_TIMEOUT_MS: Var.int({
    default: 120_000,
    min: 100,
    max: 3_600_000,
    unit: 'ms',
    description:
      'Time limit of one inference call, every attempt and fallback included (504 beyond, or a stream error event)',
  }),
  INFERENCE_MAX_ATTEMPTS: Var.int({
    default: 3,
    min: 1,
    max: 10,
    description:
      'Attempts per model (the first included) on 429, 5xx or overloaded answers, only before any output was sent; `Retry-After` is honoured',
  }),
  INFERENCE_TRANSCRIBE_MAX_BYTES: Var.int({
    default: 25 * 1024 * 1024,
    min: 1024,
    max: 1024 * 1024 * 1024,
    unit: 'bytes',
    description: 'Largest audio `/transcribe` accepts, as multipart or base64 JSON (413 beyond)',
  }),
  INFERENCE_COOLDOWN_MS: Var.int({
    default: 30_000,
    min: 0,
    max: 3_600_000,
    unit: 'ms',
    description:
      'How long a provider sharing a model by weight is skipped after failing a call (429, 5xx, overloaded, no answer), on every instance; 0: never skipped',
  }),
  INFERENCE_CACHE_MAX_TTL_S: Var.int({
    default: 86_400,
    min: 1,
    max: 30 * 86_400,
    description:
      "Longest time a response may stay in the response cache (`Cache-Control: max-age=N`, `x-platform-cache: ttl=N` or a key's `cacheTtlSeconds`; longer asks are cut to it)",
  }),
  INFERENCE_SPEND_INTERVAL_MS: Var.int({
    default: 86_400_000,
    min: 0,
    max: 7 * 86_400_000,
    unit: 'ms',
    description:
      'Pause between two runs of the job that writes inference spend into billing (per day, app, key and model; the last 3 UTC days each run); 0 turns it off',
  }),
  INFERENCE_BASE_URLS: Var.baseUrls('any', {
    documentedDefault: "empty (only each type's official API)",
    description:
      "Base URLs an inference provider's `baseUrl` may name besides its type's official API (vLLM, Ollama, a proxy); provider keys are sent nowhere else, and `openai-compatible` providers need one. A bad entry stops start-up",
  }),
  '<provider envVar>': Var.string({
    accepts: 'an API key',
    description:
      "The variable holding an inference provider's API key, read at call time, never stored or returned: `OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `GOOGLE_GENERATIVE_AI_API_KEY`, `GEMINI_API_KEY`, `OPENROUTER_API_KEY`, or a name starting with `INFERENCE_KEY_` (`INFERENCE_KEY_VLLM`); set it on the inference service and the gateway",
  }),
});

export const INFERENCE_VARIABLES = VARIABLES.variables;

export function inferenceConfig(env: Env) {
  const values = VARIABLES.read(env);
  return {
    timeoutMs: values.INFERENCE_TIMEOUT_MS,
    maxAttempts: values.INFERENCE_MAX_ATTEMPTS,
    transcribeMaxBytes: values.INFERENCE_TRANSCRIBE_MAX_BYTES,
    cooldownMs: values.INFERENCE_COOLDOWN_MS,
    cacheMaxTtlS: values.INFERENCE_CACHE_MAX_TTL_S,
    spendIntervalMs: values.INFERENCE_SPEND_INTERVAL_MS,
    /** Base URLs allowed besides each type's official API (normalised). */
    baseUrls: values.INFERENCE_BASE_URLS,
    /** The environment itself: provider credentials are read from it at call time. */
    env,
  };
}

export type InferenceConfig = ReturnType<typeof inferenceConfig>;
