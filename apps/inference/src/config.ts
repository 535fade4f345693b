import { envInt, type Env, type Variable } from '@platform/core';

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
    name: '<provider envVar>',
    default: 'unset',
    description:
      'Each provider names the variable holding its API key (envVar, e.g. OPENAI_API_KEY), read at call time; never stored or returned',
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
    /** The environment itself: provider credentials are read from it at call time. */
    env,
  };
}

export type InferenceConfig = ReturnType<typeof inferenceConfig>;
