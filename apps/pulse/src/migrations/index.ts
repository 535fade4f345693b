import type { Migrations } from '@platform/db';
import * as events from './2026-11-21-events.js';
import * as persons from './2026-12-12-persons.js';
import * as rollups from './2026-12-13-rollups.js';
import * as serviceProperty from './2026-12-28-service-property.js';

export const migrations: Migrations = {
  '2026-11-21-events': events,
  '2026-12-12-persons': persons,
  '2026-12-13-rollups': rollups,
  '2026-12-28-service-property': serviceProperty,
};
