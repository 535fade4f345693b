import type { Migrations } from '@platform/db';
import * as featureOverrides from './2026-11-21-feature-overrides.js';
import * as rateLimits from './2026-12-20-rate-limits.js';

export const migrations: Migrations = {
  '2026-11-21-feature-overrides': featureOverrides,
  '2026-12-20-rate-limits': rateLimits,
};
