import type { BillingConfig } from '../config.js';
import type { Adapter } from './adapter.js';
import { anthropicAdapter } from './anthropic.js';
import { focusAdapter } from './focus.js';
import { openaiAdapter } from './openai.js';

export { ProviderError, type Adapter, type SyncedItem, type SyncRequest } from './adapter.js';
export { anthropicAdapter, focusAdapter, openaiAdapter };

/** The sync adapters by name, in the order GET /sync/adapters lists them. */
export const adapters = (config: BillingConfig): Record<string, Adapter> => ({
  openai: openaiAdapter(config.openaiUrl),
  anthropic: anthropicAdapter(config.anthropicUrl),
  focus: focusAdapter,
});
