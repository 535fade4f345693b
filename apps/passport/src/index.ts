import { join } from 'node:path';
import { defineService } from '@platform/core';
import { credentialResolver } from './domain/resolver.js';
import { PASSPORT_VARIABLES, passportConfig, type PassportConfig } from './config.js';
import type { PassportDatabase } from './database.js';
import { passportState, type PassportState } from './domain/state.js';
import { migrations } from './migrations/index.js';
import { connectionRoutes } from './routes/connections.js';
import { keyRoutes } from './routes/keys.js';
import { providerRoutes } from './routes/providers.js';
import { sessionRoutes } from './routes/sessions.js';
import { signInRoutes } from './routes/signin.js';
import { userRoutes } from './routes/users.js';

/** Sign-in through the identity provider, sessions, API keys and delegated OAuth tokens (issue 13). */
export const passport = defineService<PassportDatabase, PassportConfig, PassportState>({
  name: 'passport',
  title: 'Identity',
  root: join(__dirname, '..'),
  defaultPort: 3108,
  migrations,
  variables: PASSPORT_VARIABLES,
  config: passportConfig,
  authenticate: credentialResolver,
  setup: passportState,
  routes: [signInRoutes, sessionRoutes, keyRoutes, userRoutes, providerRoutes, connectionRoutes],
});

export { credentialResolver } from './domain/resolver.js';
export { newApiKey, parseApiKey } from './domain/keys.js';
export default passport;
