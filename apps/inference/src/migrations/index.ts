import type { Migrations } from '@platform/db';
import * as inference from './2026-11-22-inference.js';
import * as ownership from './2026-12-03-ownership.js';
import * as keys from './2026-12-10-keys-balancing-cache.js';

export const migrations: Migrations = {
  '2026-11-22-inference': inference,
  '2026-12-03-ownership': ownership,
  '2026-12-10-keys-balancing-cache': keys,
};
