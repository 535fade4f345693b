export * from './errors.js';
export * from './schemas.js';
export * from './config.js';
export * from './ids.js';
export * from './time.js';
export {
  createApp,
  sendError,
  notFoundHandler,
  loggerOptions,
  MiB,
  type App,
  type AppOptions,
} from './app.js';
export { schemaErrorFormatter } from './validation.js';
export * from './service.js';
export * from './openapi.js';
export * from './standalone.js';
export * from './jobs/index.js';
export * from './records.js';
export * from './destination.js';
export { Type, type Static, type TObject, type TSchema } from 'typebox';
export type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
export * from './auth/index.js';
