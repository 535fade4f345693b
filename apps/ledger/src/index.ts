import { join } from 'node:path';
import { defineService } from '@platform/core';
import { LEDGER_VARIABLES, ledgerConfig, type LedgerConfig } from './config.js';
import type { LedgerDatabase } from './database.js';
import { migrations } from './migrations/index.js';
import { applyAll } from './domain/retention.js';
import { classificationRoutes } from './routes/classifications.js';
import { changeRoutes } from './routes/changes.js';
import { exportRoutes } from './routes/export.js';
import { sinkRoutes } from './routes/sinks.js';
import { deliverSinks } from './domain/sinks.js';
import { eventRoutes } from './routes/events.js';
import { policyRoutes } from './routes/policies.js';
import { signatureRoutes } from './routes/signatures.js';
import { headStatement, signHead } from './domain/signing.js';
import { ledgerState, type LedgerState } from './domain/state.js';

export { LEDGER_VARIABLES, ledgerConfig, type LedgerConfig } from './config.js';

/** Audit: a hash-chained event log with signed heads, enforced retention, field classifications (spec 2.3, 4.3). */
export const ledger = defineService<LedgerDatabase, LedgerConfig, LedgerState>({
  name: 'ledger',
  title: 'Audit',
  root: join(__dirname, '..'),
  defaultPort: 3103,
  migrations,
  variables: LEDGER_VARIABLES,
  config: ledgerConfig,
  setup: ledgerState,
  routes: [
    eventRoutes,
    changeRoutes,
    exportRoutes,
    sinkRoutes,
    signatureRoutes,
    policyRoutes,
    classificationRoutes,
  ],
  jobs: ({ db, config, auth }) => [
    {
      name: 'sinks',
      intervalMs: config.sinkIntervalMs,
      task: (signal) => deliverSinks(db, auth, config.sinkPolicy, signal),
    },
    {
      name: 'retention',
      intervalMs: config.retentionIntervalMs,
      // The log names only the policies that removed or rewrote something.
      task: async () => (await applyAll(db)).filter((r) => r.deleted + r.anonymized > 0),
    },
    {
      name: 'sign-head',
      // Off without a key; signs only when the head moved since the last signed head.
      intervalMs: config.signingKey ? config.signingIntervalMs : 0,
      task: async () => {
        if (!config.signingKey) return undefined;
        const { head, created } = await signHead(db, config.signingKey);
        // Logged whole: the log keeps a copy of every signed head outside the database.
        return created
          ? { signedHead: { statement: headStatement(head), signature: head.signature } }
          : { seq: head.seq, unchanged: true };
      },
    },
  ],
});

export default ledger;
