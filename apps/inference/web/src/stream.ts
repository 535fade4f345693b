import { platformFetch, PlatformError, type ArgsOf } from '@platform/ui';
import { EventSourceParserStream } from 'eventsource-parser/stream';

export type ChatBody = NonNullable<ArgsOf<'inference.chatStream'>['body']>;
export interface StreamEnd {
  usage: { inputTokens: number; outputTokens: number };
  requestId: string;
}

type StreamEvent =
  | { type: 'content_block_delta'; delta: { text: string } }
  | ({ type: 'message_stop' } & StreamEnd)
  | { type: 'error'; error: { code: string; message: string } };

/**
 * POST /chat/stream and read its Server-Sent Events: `onText` gets each chunk as it arrives; the
 * answer is the usage of `message_stop`. A failure before any output (a JSON envelope) or an
 * `error` event is thrown as the API's PlatformError; `signal` aborts the call (AbortError).
 */
export async function streamChat(
  body: ChatBody,
  onText: (text: string) => void,
  signal: AbortSignal,
): Promise<StreamEnd> {
  const response = await platformFetch('/api/v1/inference/chat/stream', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.body)
    throw new PlatformError('BAD_GATEWAY', 'The stream answered without a body', 502);
  const events = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const event = JSON.parse(next.value.data) as StreamEvent;
    if (event.type === 'content_block_delta') onText(event.delta.text);
    else if (event.type === 'message_stop')
      return { usage: event.usage, requestId: event.requestId };
    else if (event.type === 'error')
      throw new PlatformError(event.error.code, event.error.message, 502);
  }
  throw new PlatformError('BAD_GATEWAY', 'The stream ended before the answer was complete', 502);
}
