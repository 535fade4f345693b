import { join } from 'node:path';
import type { ServiceManifest } from '@platform/core';
import { migrations } from './migrations/index.js';
import type { PulseDatabase } from './repository.js';
import { eventRoutes } from './routes/events.js';
import { reportRoutes } from './routes/reports.js';

/** Analytics: event tracking and a top-events report (spec 2.7, 4.7). */
export const pulse: ServiceManifest = {
  name: 'pulse',
  title: 'Analytics',
  prefix: '/api/v1/pulse',
  version: '0.1.0',
  defaultPort: 3107,
  migrations,
  webRoot: join(__dirname, '..', 'web'),
  async plugin(app, { db }) {
    const schema = db.schema<PulseDatabase>('pulse');
    await app.register(eventRoutes, { pulse: schema });
    await app.register(reportRoutes, { pulse: schema });
  },
};

export default pulse;
