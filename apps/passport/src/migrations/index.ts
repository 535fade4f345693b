import type { Migrations } from '@platform/db';
import * as identity from './2026-11-23-identity.js';

export const migrations: Migrations = {
  '2026-11-23-identity': identity,
};
