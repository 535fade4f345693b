import type { Migrations } from '@platform/db';
import * as inference from './2026-11-22-inference.js';

export const migrations: Migrations = {
  '2026-11-22-inference': inference,
};
