import type { Send } from './provider.js';

/** Writes the message to the service log (info): not live, nothing leaves the service. */
export const sendLog: Send = async (message, { log }) => {
  log.info(
    {
      delivery: message.deliveryId,
      appId: message.appId,
      channelId: message.channelId,
      target: message.target,
      subject: message.subject,
      text: message.text,
      metadata: message.metadata,
    },
    'communication: message (log channel)',
  );
  return `log:${message.deliveryId}`;
};
