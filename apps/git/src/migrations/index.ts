import type { Migrations } from '@platform/db';
import * as git from './2026-11-25-git.js';
import * as webhookBody from './2026-11-26-git-webhook-body.js';
import * as ownership from './2026-12-03-ownership.js';
import * as pushes from './2026-12-13-pushes.js';

export const migrations: Migrations = {
  '2026-11-25-git': git,
  '2026-11-26-git-webhook-body': webhookBody,
  '2026-12-03-ownership': ownership,
  '2026-12-13-pushes': pushes,
};
