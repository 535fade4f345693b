import { join } from 'node:path';
import { defineService } from '@platform/core';
import { INFERENCE_VARIABLES, inferenceConfig, type InferenceConfig } from './config.js';
import type { InferenceDatabase } from './database.js';
import { inferenceState, type InferenceState } from './domain/state.js';
import { sweep } from './domain/sweep.js';
import { exportSpend } from './domain/spend.js';
import { migrations } from './migrations/index.js';
import { anthropicRoutes } from './routes/anthropic.js';
import { chatRoutes } from './routes/chat.js';
import { keyRoutes } from './routes/keys.js';
import { mediaRoutes } from './routes/media.js';
import { modelRoutes } from './routes/models.js';
import { openAIMediaRoutes } from './routes/openai-media.js';
import { openAIRoutes } from './routes/openai.js';
import { providerRoutes } from './routes/providers.js';
import { usageRoutes } from './routes/usage.js';

export { INFERENCE_VARIABLES, inferenceConfig, type InferenceConfig } from './config.js';

/** Model providers, routing, chat and SSE streaming, embeddings, images, transcription and exact usage. */
export const inference = defineService<InferenceDatabase, InferenceConfig, InferenceState>({
  name: 'inference',
  title: 'Inference',
  root: join(__dirname, '..'),
  defaultPort: 3111,
  migrations,
  variables: INFERENCE_VARIABLES,
  config: inferenceConfig,
  setup: inferenceState,
  jobs: ({ db, config, platform }) => [
    // Inference spend into billing, per UTC day, app, key and model (domain/spend.ts).
    { name: 'spend', intervalMs: config.spendIntervalMs, task: () => exportSpend(db, platform) },
    // Expired cache entries, old minute counters, ended cool-downs.
    { name: 'sweep', intervalMs: 10 * 60_000, task: () => sweep(db) },
  ],
  routes: [
    providerRoutes,
    modelRoutes,
    chatRoutes,
    mediaRoutes,
    usageRoutes,
    keyRoutes,
    openAIRoutes,
    openAIMediaRoutes,
    anthropicRoutes,
  ],
});

export default inference;
