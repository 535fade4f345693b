export * from './transport.js';
export * from './client.js';
export { OPERATIONS, type operations } from './generated/index.js';
