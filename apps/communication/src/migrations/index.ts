import type { Migrations } from '@platform/db';
import * as communication from './2026-11-24-communication.js';

export const migrations: Migrations = {
  '2026-11-24-communication': communication,
};
