import type { Migrations } from '@platform/db';
import * as palette from './2026-11-21-palette.js';
import * as tokenAliases from './2026-11-22-token-aliases.js';

export const migrations: Migrations = {
  '2026-11-21-palette': palette,
  '2026-11-22-token-aliases': tokenAliases,
};
