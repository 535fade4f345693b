export * from './transport.js';
export * from './client.js';
export type { operations, paths, components } from './generated/openapi.js';
export { OPERATIONS } from './generated/operations.js';
