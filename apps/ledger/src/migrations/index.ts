import type { Migrations } from '@platform/db';
import * as ledger from './2026-11-21-ledger.js';
import * as signedHeads from './2026-11-22-signed-heads.js';
import * as sinks from './2026-12-20-sinks.js';
import * as sinkHeads from './2026-12-27-sink-heads.js';

export const migrations: Migrations = {
  '2026-11-21-ledger': ledger,
  '2026-11-22-signed-heads': signedHeads,
  '2026-12-20-sinks': sinks,
  '2026-12-27-sink-heads': sinkHeads,
};
