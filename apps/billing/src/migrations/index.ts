import type { Migrations } from '@platform/db';
import * as billing from './2026-11-21-billing.js';
import * as focusImports from './2026-11-22-focus-imports.js';
import * as focusStreaming from './2026-11-23-focus-streaming.js';
import * as ownership from './2026-12-03-ownership.js';
import * as spendOwners from './2026-12-22-spend-owners.js';
import * as focusCopy from './2026-12-23-focus-copy.js';
import * as budgets from './2026-12-24-budgets.js';

export const migrations: Migrations = {
  '2026-11-21-billing': billing,
  '2026-11-22-focus-imports': focusImports,
  '2026-11-23-focus-streaming': focusStreaming,
  '2026-12-03-ownership': ownership,
  '2026-12-22-spend-owners': spendOwners,
  '2026-12-23-focus-copy': focusCopy,
  '2026-12-24-budgets': budgets,
};
