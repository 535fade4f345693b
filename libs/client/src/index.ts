export * from './transport.js';
export * from './http.js';
export * from './client.js';
export { ACCESS, OPERATIONS, type operations } from './generated/index.js';
