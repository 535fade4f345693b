import type { Migrations } from '@platform/db';
import * as events from './2026-11-21-events.js';

export const migrations: Migrations = {
  '2026-11-21-events': events,
};
