export {
  closeTestDatabases,
  oneDatabaseTwice,
  testDatabase,
  testDatabaseServer,
  type DatabasePreset,
} from './database.js';
export { startProcess, type RunningProcess, type ProcessOptions } from './process.js';
export { processStorage, type ProcessStorage } from './process-storage.js';
export { startPostgres, sharedPostgres, type PostgresServer } from './postgres.js';
export {
  serviceUnderTest,
  migratedService,
  jsonApi,
  listen,
  deadUrl,
  type Json,
  type JsonApi,
  type ServiceUnderTest,
} from './service.js';
export { servicesUnderTest, type ServicesUnderTest } from './services.js';
export { countQueries, type CountedDatabase } from './queries.js';
export { startLoad, type Load, type LoadRequest, type Outcome } from './load.js';
export { clearOfMinuteEnd, sleep, eventually, type EventuallyOptions } from './waiting.js';
export { useService, type UseServiceOptions } from './lifecycle.js';
export {
  startOpenIdProvider,
  cookieBrowser,
  type OpenIdProvider,
  type CookieBrowser,
  type Claims,
  type Issued,
  type JsonResponse,
} from './oidc.js';
export {
  launchBrowser,
  openPage,
  seriousViolations,
  screenshot,
  ARTIFACTS,
  type WebPage,
  type AxeViolation,
} from './browser.js';
export { AUTH_ENV, CALLERS, person, keyCaller, identityHeaders, jsonApiAs } from './access.js';
