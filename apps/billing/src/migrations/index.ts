import type { Migrations } from '@platform/db';
import * as billing from './2026-11-21-billing.js';
import * as focusImports from './2026-11-22-focus-imports.js';
import * as focusStreaming from './2026-11-23-focus-streaming.js';
import * as ownership from './2026-12-03-ownership.js';

export const migrations: Migrations = {
  '2026-11-21-billing': billing,
  '2026-11-22-focus-imports': focusImports,
  '2026-11-23-focus-streaming': focusStreaming,
  '2026-12-03-ownership': ownership,
};
