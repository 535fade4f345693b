import type { Migrations } from '@platform/db';
import * as sessions from './2026-11-22-sessions.js';
import * as workflows from './2026-11-27-workflows.js';
import * as backends from './2026-11-28-backends.js';
import * as ownership from './2026-12-03-ownership.js';
import * as origins from './2026-12-04-origins.js';
import * as files from './2026-12-05-files.js';
import * as ops from './2026-12-05-ops.js';
import * as npm from './2026-12-05-npm.js';
import * as durableWorkflows from './2026-12-20-durable-workflows.js';

export const migrations: Migrations = {
  '2026-11-22-sessions': sessions,
  '2026-11-27-workflows': workflows,
  '2026-11-28-backends': backends,
  '2026-12-03-ownership': ownership,
  '2026-12-04-origins': origins,
  '2026-12-05-files': files,
  '2026-12-05-ops': ops,
  '2026-12-05-npm': npm,
  '2026-12-20-durable-workflows': durableWorkflows,
};
