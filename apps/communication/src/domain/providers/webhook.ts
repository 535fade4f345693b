import { createHmac } from 'node:crypto';
import { postJson } from './http.js';
import type { Send } from './provider.js';

/**
 * `sha256=<hex>` of HMAC-SHA256 under the channel's secret over `<timestamp>.<body>`: what the
 * receiver computes again to check x-platform-signature (see the README).
 */
export const signature = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/**
 * A signed JSON POST; the message id is the answer's JSON `id` (or `messageId`) when it is a
 * short id (1-200 visible ASCII characters, or a number), else `HTTP <status>`: nothing else of
 * the answer is kept, so a destination's answer cannot be read back through the API.
 */
export const sendWebhook: Send = async (
  message,
  { config, timeoutMs, signal, allowPrivateTargets },
) => {
  const body = JSON.stringify({
    id: message.deliveryId,
    appId: message.appId,
    channelId: message.channelId,
    target: message.target,
    subject: message.subject,
    text: message.text,
    html: message.html,
    metadata: message.metadata,
    createdAt: message.createdAt,
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    'x-platform-signature': signature(String(config.secret), timestamp, body),
    'x-platform-timestamp': timestamp,
    'x-platform-delivery': message.deliveryId,
  };
  if (message.requestId) headers['x-request-id'] = message.requestId;
  const answer = await postJson(String(config.url), body, headers, {
    timeoutMs,
    signal,
    allowPrivate: allowPrivateTargets,
  });
  return messageId(answer.text) ?? `HTTP ${answer.status}`;
};

const ID = /^[\x21-\x7e]{1,200}$/;

function messageId(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { id?: unknown; messageId?: unknown } | null;
    const id = parsed?.id ?? parsed?.messageId;
    if (typeof id === 'number' && Number.isFinite(id)) return String(id);
    if (typeof id === 'string' && ID.test(id)) return id;
  } catch {
    // Not JSON: no id.
  }
  return undefined;
}
