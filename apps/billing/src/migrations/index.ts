import type { Migrations } from '@platform/db';
import * as billing from './2026-11-21-billing.js';
import * as focusImports from './2026-11-22-focus-imports.js';

export const migrations: Migrations = {
  '2026-11-21-billing': billing,
  '2026-11-22-focus-imports': focusImports,
};
