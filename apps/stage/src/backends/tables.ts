import type { Generated } from '@platform/db';

/** The tables of the backends (apps/stage/src/backends), part of StageDatabase. */
export interface BackendTables {
  backend_kv: BackendKvTable;
}

/** `@stage/compute` kv: one app's durable key-value storage (deleted with the app). */
export interface BackendKvTable {
  app_sid: string;
  key: string;
  /** The value as JSON text. */
  value: string;
  /** Bytes of `value` (UTF-8). */
  size: number;
  updated_at: Generated<Date>;
}
