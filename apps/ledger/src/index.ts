import { join } from 'node:path';
import { runPeriodically, type ServiceManifest } from '@platform/core';
import { ChainAppender } from './appender.js';
import { LEDGER_VARIABLES, ledgerConfig } from './config.js';
import { migrations } from './migrations/index.js';
import type { LedgerDatabase } from './repository.js';
import { applyAll } from './retention.js';
import { classificationRoutes } from './routes/classifications.js';
import { eventRoutes } from './routes/events.js';
import { policyRoutes } from './routes/policies.js';

export { LEDGER_VARIABLES, ledgerConfig } from './config.js';

/** Audit: a hash-chained event log, enforced retention, field classifications (spec 2.3, 4.3). */
export const ledger: ServiceManifest = {
  name: 'ledger',
  title: 'Audit',
  prefix: '/api/v1/ledger',
  version: '0.1.0',
  defaultPort: 3103,
  migrations,
  webRoot: join(__dirname, '..', 'web'),
  variables: LEDGER_VARIABLES,
  config: ledgerConfig,
  async plugin(app, { db, env, jobs }) {
    const config = ledgerConfig(env);
    const schema = db.schema<LedgerDatabase>('ledger');
    const appender = new ChainAppender(schema);
    // Acknowledged appends are written before the database closes.
    app.addHook('onClose', () => appender.drain());
    await app.register(eventRoutes, { ledger: schema, appender });
    await app.register(policyRoutes, { ledger: schema });
    await app.register(classificationRoutes, { ledger: schema });
    if (jobs)
      runPeriodically(app, {
        name: 'retention',
        intervalMs: config.retentionIntervalMs,
        task: async () => {
          const results = await applyAll(schema);
          return results.filter((r) => r.deleted + r.anonymized > 0);
        },
      });
  },
};

export default ledger;
