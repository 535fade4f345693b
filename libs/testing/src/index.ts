export { testDatabase, testDatabaseServer, closeTestDatabases } from './database.js';
export { startProcess, type RunningProcess } from './process.js';
export { serviceUnderTest, listen, deadUrl, type ServiceUnderTest } from './service.js';
