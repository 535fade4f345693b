import { join } from 'node:path';
import { defineService } from '@platform/core';
import { credentialResolver } from './auth/resolver.js';
import { PASSPORT_VARIABLES, passportConfig, type PassportConfig } from './config.js';
import type { PassportDatabase } from './database.js';
import { migrations } from './migrations/index.js';
import { connectionRoutes } from './routes/connections.js';
import { keyRoutes } from './routes/keys.js';
import { providerRoutes } from './routes/providers.js';
import { sessionRoutes } from './routes/sessions.js';
import { signInRoutes } from './routes/signin.js';
import { userRoutes } from './routes/users.js';

/** Sign-in through the identity provider, sessions, API keys and delegated OAuth tokens (issue 13). */
export const passport = defineService<PassportDatabase, PassportConfig>({
  name: 'passport',
  title: 'Identity',
  root: join(__dirname, '..'),
  defaultPort: 3108,
  migrations,
  variables: PASSPORT_VARIABLES,
  config: passportConfig,
  authenticate: credentialResolver,
  routes: [signInRoutes, sessionRoutes, keyRoutes, userRoutes, providerRoutes, connectionRoutes],
});

export { credentialResolver } from './auth/resolver.js';
export { newApiKey, parseApiKey } from './auth/keys.js';
export default passport;
