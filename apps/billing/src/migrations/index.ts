import type { Migrations } from '@platform/db';
import * as billing from './2026-11-21-billing.js';

export const migrations: Migrations = {
  '2026-11-21-billing': billing,
};
