export { testDatabase, testDatabaseServer, closeTestDatabases } from './database.js';
export { startProcess, type RunningProcess } from './process.js';
export {
  serviceUnderTest,
  jsonApi,
  listen,
  deadUrl,
  type Json,
  type JsonApi,
  type ServiceUnderTest,
} from './service.js';
export { countQueries, type CountedDatabase } from './queries.js';
