export { testDatabase, closeTemplate } from './database.js';
export { serviceUnderTest, listen, deadUrl, type ServiceUnderTest } from './service.js';
