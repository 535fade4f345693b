import type { Migrations } from '@platform/db';
import * as featureOverrides from './2026-11-21-feature-overrides.js';

export const migrations: Migrations = {
  '2026-11-21-feature-overrides': featureOverrides,
};
