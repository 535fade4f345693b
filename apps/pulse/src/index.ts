import { join } from 'node:path';
import { defineService } from '@platform/core';
import type { PulseDatabase } from './database.js';
import { setupPulse, type PulseState } from './domain/state.js';
import { migrations } from './migrations/index.js';
import { eventRoutes } from './routes/events.js';
import { insightRoutes } from './routes/insights.js';
import { personRoutes } from './routes/persons.js';
import { postHogRoutes } from './routes/posthog.js';
import { reportRoutes } from './routes/reports.js';
import { segmentRoutes } from './routes/segment.js';

/** Analytics: events (native, PostHog and Segment wire formats), persons, reports and insights. */
export const pulse = defineService<PulseDatabase, undefined, PulseState>({
  name: 'pulse',
  title: 'Analytics',
  root: join(__dirname, '..'),
  defaultPort: 3107,
  migrations,
  setup: setupPulse,
  routes: [eventRoutes, reportRoutes, insightRoutes, personRoutes, postHogRoutes, segmentRoutes],
});

export default pulse;
