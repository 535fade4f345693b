import { join } from 'node:path';
import { defineService } from '@platform/core';
import {
  COMMUNICATION_VARIABLES,
  communicationConfig,
  type CommunicationConfig,
} from './config.js';
import type { CommunicationDatabase } from './database.js';
import { migrations } from './migrations/index.js';
import { channelRoutes } from './routes/channels.js';
import { deliveryRoutes } from './routes/deliveries.js';
import { registrationRoutes } from './routes/registrations.js';
import { eventRoutes } from './routes/events.js';
import { inboxRoutes } from './routes/inbox.js';
import { preferenceRoutes } from './routes/preferences.js';
import { sendRoutes } from './routes/send.js';
import { templateRoutes } from './routes/templates.js';
import { sweep } from './domain/schedule.js';
import { communicationState, type CommunicationState } from './domain/state.js';

export {
  COMMUNICATION_VARIABLES,
  communicationConfig,
  type CommunicationConfig,
} from './config.js';

/** Channels on real providers, app registrations, and deliveries that are never lost (spec 2.9, 4.9). */
export const communication = defineService<
  CommunicationDatabase,
  CommunicationConfig,
  CommunicationState
>({
  name: 'communication',
  title: 'Communication',
  root: join(__dirname, '..'),
  defaultPort: 3109,
  migrations,
  variables: COMMUNICATION_VARIABLES,
  config: communicationConfig,
  setup: communicationState,
  jobs: (ctx) => [
    { name: 'communication-schedule', intervalMs: ctx.config.scheduleMs, task: () => sweep(ctx) },
  ],
  routes: [
    channelRoutes,
    registrationRoutes,
    templateRoutes,
    sendRoutes,
    deliveryRoutes,
    preferenceRoutes,
    inboxRoutes,
    eventRoutes,
  ],
});

export default communication;
