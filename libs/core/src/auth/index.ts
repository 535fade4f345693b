export * from './identity.js';
export * from './settings.js';
export * from './secrets.js';
export * from './tokens.js';
export * from './hook.js';
export * from './platform.js';
export * from './policy.js';
export * from './authorize.js';
