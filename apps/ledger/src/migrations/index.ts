import type { Migrations } from '@platform/db';
import * as ledger from './2026-11-21-ledger.js';

export const migrations: Migrations = { '2026-11-21-ledger': ledger };
