import type { Migrations } from '@platform/db';
import * as communication from './2026-11-24-communication.js';
import * as notifications from './2026-12-20-notifications.js';

export const migrations: Migrations = {
  '2026-11-24-communication': communication,
  '2026-12-20-notifications': notifications,
};
