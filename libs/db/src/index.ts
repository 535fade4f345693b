export {
  openDatabase,
  fromPGlite,
  fromPGliteWorker,
  MEMORY,
  type DatabaseOptions,
  type PlatformDatabase,
  type PoolStats,
} from './database.js';
export { migrateSchema, type Migrations } from './migrate.js';
export { selectByIdOrName, idsByIdOrName } from './lookup.js';
export { jsonb } from './values.js';
export { copyInto, copyRow, copyValue, type CopyTarget, type CopyOptions } from './copy.js';
export { withTimeout } from './timeout.js';
export { PGliteDialect, type PGliteSession } from './pglite-dialect.js';
export { PGliteWorker } from './pglite-remote.js';
export { PGLITE_EXTENSIONS } from './pglite-extensions.js';
export {
  Kysely,
  sql,
  type Generated,
  type Migration,
  type Selectable,
  type Insertable,
  type Updateable,
  type Transaction,
  type RawBuilder,
  type CompiledQuery,
} from 'kysely';
export * from './errors.js';
export type { NotificationHandler, Unlisten } from './listen.js';
export { ownedBy, type Visible } from './owned.js';
