import type { Migrations } from '@platform/db';
import * as git from './2026-11-25-git.js';

export const migrations: Migrations = {
  '2026-11-25-git': git,
};
