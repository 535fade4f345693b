import type { Migrations } from '@platform/db';
import * as sessions from './2026-11-22-sessions.js';

export const migrations: Migrations = {
  '2026-11-22-sessions': sessions,
};
