import type { Migrations } from '@platform/db';
import * as palette from './2026-11-21-palette.js';
import * as tokenAliases from './2026-11-22-token-aliases.js';
import * as ownership from './2026-12-03-ownership.js';
import * as dtcgModes from './2026-12-20-dtcg-modes.js';
import * as modifierDefaults from './2026-12-21-modifier-defaults.js';

export const migrations: Migrations = {
  '2026-11-21-palette': palette,
  '2026-11-22-token-aliases': tokenAliases,
  '2026-12-03-ownership': ownership,
  '2026-12-20-dtcg-modes': dtcgModes,
  '2026-12-21-modifier-defaults': modifierDefaults,
};
