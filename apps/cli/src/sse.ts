import { call } from '@platform/client';
import { authHeaders, connectionLost, envelopeOf, send } from './api.js';
import { loadConfig } from './config.js';

/**
 * POSTs the body to the gateway path and hands each Server-Sent Event's JSON data to `onEvent`
 * as it arrives. An answer that is not a stream is the error envelope (PlatformError), or not the
 * platform's at all (a clear error); no answer is ConnectionError, and an answer cut off midway
 * says the connection was lost (both exit 5).
 */
export async function streamEvents(
  path: string,
  body: unknown,
  onEvent: (data: unknown) => void,
): Promise<void> {
  const config = loadConfig();
  const response = await send(`${config.url}${path}`, {
    method: 'POST',
    headers: {
      ...authHeaders(config),
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
    // A stream may take long; the timeout of a plain request does not apply.
    signal: null,
  });
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const envelope = await envelopeOf(response, config.url);
    await call({ send: async () => envelope }, { method: 'POST', path });
    throw connectionLost(config.url, new Error(`HTTP ${response.status} without a stream`));
  }
  // eventsource-parser is an ES module: loaded when a stream is read.
  const { createParser } = await import('eventsource-parser');
  let failure: unknown;
  const parser = createParser({
    onEvent(event) {
      if (failure) return;
      try {
        onEvent(JSON.parse(event.data));
      } catch (error) {
        failure = error;
      }
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (failure) break;
    }
  } catch (error) {
    if (!failure) throw connectionLost(new URL(config.url).origin, error);
  }
  if (failure) throw failure;
  parser.feed(decoder.decode());
  if (failure) throw failure;
}
