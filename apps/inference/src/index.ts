import { join } from 'node:path';
import { defineService } from '@platform/core';
import { INFERENCE_VARIABLES, inferenceConfig, type InferenceConfig } from './config.js';
import type { InferenceDatabase } from './database.js';
import { inferenceState, type InferenceState } from './domain/state.js';
import { migrations } from './migrations/index.js';
import { chatRoutes } from './routes/chat.js';
import { mediaRoutes } from './routes/media.js';
import { modelRoutes } from './routes/models.js';
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
  routes: [providerRoutes, modelRoutes, chatRoutes, mediaRoutes, usageRoutes],
});

export default inference;
