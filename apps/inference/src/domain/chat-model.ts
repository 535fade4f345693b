import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4Prompt,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';

/**
 * Chats call the provider package's language model (`doGenerate`, `doStream`) directly rather
 * than through `generateText`/`streamText`: those add about 0.2 ms (generate) and 0.9 ms (time to
 * the first streamed chunk) per call for features a plain chat does not use (steps, tools,
 * telemetry, their own retries), measured against the same fake provider. The wire format, the
 * errors (APICallError) and the usage are the provider package's own either way.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The chat's messages as the language-model specification's prompt. */
export function toPrompt(messages: ChatMessage[]): LanguageModelV4Prompt {
  return messages.map((m) =>
    m.role === 'system'
      ? { role: 'system', content: m.content }
      : { role: m.role, content: [{ type: 'text', text: m.content }] },
  );
}

export function callOptions(
  messages: ChatMessage[],
  maxOutputTokens: number | undefined,
  abortSignal: AbortSignal,
  requestId: string,
): LanguageModelV4CallOptions {
  return {
    prompt: toPrompt(messages),
    maxOutputTokens,
    abortSignal,
    headers: { 'x-request-id': requestId },
    includeRawChunks: false,
  };
}

/** The text of a generated answer. */
export const textOf = (content: LanguageModelV4Content[]) =>
  content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** The token counts the provider reported (undefined when it did not). */
export const tokensOf = (usage: LanguageModelV4Usage | undefined) => ({
  inputTokens: usage?.inputTokens.total,
  outputTokens: usage?.outputTokens.total,
});
