export { auditChanges, auditedRoute, type AuditHookOptions } from './hook.js';
export { AuditRelay, changeEvent, type AuditSettings } from './relay.js';
export { migrateCore, CORE_MIGRATIONS, type OutboxDb, type OutboxTable } from './outbox.js';
