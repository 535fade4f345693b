import type { Migrations } from '@platform/db';
import * as communication from './2026-11-24-communication.js';
import * as notifications from './2026-12-20-notifications.js';
import * as digestKeys from './2026-12-26-digest-keys.js';

export const migrations: Migrations = {
  '2026-11-24-communication': communication,
  '2026-12-20-notifications': notifications,
  '2026-12-26-digest-keys': digestKeys,
};
