import type { Migrations } from '@platform/db';
import * as catalog from './2026-11-21-catalog.js';

export const migrations: Migrations = {
  '2026-11-21-catalog': catalog,
};
