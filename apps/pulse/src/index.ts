import { join } from 'node:path';
import { defineService } from '@platform/core';
import type { PulseDatabase } from './database.js';
import { migrations } from './migrations/index.js';
import { eventRoutes } from './routes/events.js';
import { reportRoutes } from './routes/reports.js';

/** Analytics: event tracking and a top-events report (spec 2.7, 4.7). */
export const pulse = defineService<PulseDatabase>({
  name: 'pulse',
  title: 'Analytics',
  root: join(__dirname, '..'),
  defaultPort: 3107,
  migrations,
  routes: [eventRoutes, reportRoutes],
});

export default pulse;
