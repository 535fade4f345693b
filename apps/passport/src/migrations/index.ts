import type { Migrations } from '@platform/db';
import * as identity from './2026-11-23-identity.js';
import * as roles from './2026-12-03-roles.js';

export const migrations: Migrations = {
  '2026-11-23-identity': identity,
  '2026-12-03-roles': roles,
};
