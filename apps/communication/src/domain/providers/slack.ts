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
  const plain = message.subject ? `*${message.subject}*\n${message.text}` : message.text;
  // A template's Slack form: its text (the plain one when it has none) and its blocks.
  const form = message.slack;
  const body = form
    ? { text: form.text || plain, ...(form.blocks ? { blocks: form.blocks } : {}) }
    : { text: plain };
  const headers: Record<string, string> = {};
  if (message.requestId) headers['x-request-id'] = message.requestId;
  await postJson(String(config.webhookUrl), JSON.stringify(body), headers, {
    timeoutMs,
    signal,
    allowPrivate: allowPrivateTargets,
  });
  return 'ok';
};
