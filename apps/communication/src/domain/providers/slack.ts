import { postJson } from './http.js';
import type { Send } from './provider.js';

/**
 * Slack incoming webhook: `{ text }` (the subject in bold on the first line), answered `ok` as
 * text on success and an error word (invalid_payload, channel_not_found, ...) with a 4xx otherwise.
 * Slack answers no message id: `ok` stands for it (the answer's text is never kept).
 */
export const sendSlack: Send = async (
  message,
  { config, timeoutMs, signal, allowPrivateTargets },
) => {
  const text = message.subject ? `*${message.subject}*\n${message.text}` : message.text;
  const headers: Record<string, string> = {};
  if (message.requestId) headers['x-request-id'] = message.requestId;
  await postJson(String(config.webhookUrl), JSON.stringify({ text }), headers, {
    timeoutMs,
    signal,
    allowPrivate: allowPrivateTargets,
  });
  return 'ok';
};
