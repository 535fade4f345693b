import type { Provider } from '../../database.js';
import { sendLog } from './log.js';
import type { Send } from './provider.js';
import { sendSlack } from './slack.js';
import { sendSmtp } from './smtp.js';
import { sendWebhook } from './webhook.js';

export const SENDERS: Record<Provider, Send> = {
  smtp: sendSmtp,
  slack: sendSlack,
  webhook: sendWebhook,
  log: sendLog,
  // Written by the delivery job itself (domain/inbox.ts): it needs the database.
  inbox: sendLog,
};

/** Whether a real provider carries the channel's messages (false for `log`). */
export const isLive = (provider: Provider) => provider !== 'log';

export type { Message, Send } from './provider.js';
export { DeliveryError, permanent, transient } from './errors.js';
export { signature } from './webhook.js';
