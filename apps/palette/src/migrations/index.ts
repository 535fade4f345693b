import type { Migrations } from '@platform/db';
import * as palette from './2026-11-21-palette.js';

export const migrations: Migrations = {
  '2026-11-21-palette': palette,
};
