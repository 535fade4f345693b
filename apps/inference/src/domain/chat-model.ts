import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FilePart,
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4ToolChoice,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { badRequest } from '@platform/core';

/**
 * Chats call the provider package's language model (`doGenerate`, `doStream`) directly rather
 * than through `generateText`/`streamText`: those add about 0.2 ms (generate) and 0.9 ms (time to
 * the first streamed chunk) per call for features a plain chat does not use (steps, tools,
 * telemetry, their own retries), measured against the same fake provider. The wire format, the
 * errors (APICallError) and the usage are the provider package's own either way.
 *
 * A `Generation` is what a chat asks of the model, whatever the wire format it came in (native,
 * OpenAI, Anthropic): the prompt and the options of the language-model specification.
 */
export interface Generation {
  prompt: LanguageModelV4Prompt;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  tools?: LanguageModelV4FunctionTool[];
  toolChoice?: LanguageModelV4ToolChoice;
  responseFormat?: LanguageModelV4CallOptions['responseFormat'];
}

/** The options a generation's call passes to `doGenerate` / `doStream`. */
export function generationOptions(
  generation: Generation,
  abortSignal: AbortSignal,
  requestId: string,
): LanguageModelV4CallOptions {
  return {
    ...generation,
    abortSignal,
    headers: { 'x-request-id': requestId },
    includeRawChunks: false,
  };
}

/** Whether a generation asks for more than messages and a length (what the check looks at). */
export const hasOptions = (g: Generation) =>
  Object.keys(g).some(
    (k) => k !== 'prompt' && k !== 'maxOutputTokens' && g[k as keyof Generation] !== undefined,
  ) ||
  g.prompt.some(
    (m) => m.role === 'tool' || (m.role !== 'system' && m.content.some((p) => p.type !== 'text')),
  );

const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/\r\n]*={0,2})$/i;

/**
 * An image as a prompt's file part: a `data:<type>;base64,...` URL (its bytes), or an http(s) URL
 * the provider fetches itself (checked against what it accepts by `checkHonoured`). `where` names
 * the field in a 400.
 */
export function imagePart(url: string, where: string): LanguageModelV4FilePart {
  const data = DATA_URL.exec(url);
  if (data) {
    if (!data[1].toLowerCase().startsWith('image/'))
      throw badRequest(`Invalid parameter: ${where}: a data URL of an image (image/*) is expected`);
    return {
      type: 'file',
      mediaType: data[1].toLowerCase(),
      data: { type: 'data', data: data[2] },
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`Invalid parameter: ${where}: an http(s) or base64 data: URL is expected`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw badRequest(`Invalid parameter: ${where}: an http(s) or base64 data: URL is expected`);
  return { type: 'file', mediaType: 'image/*', data: { type: 'url', url: parsed } };
}

/** The text of a generated answer. */
export const textOf = (content: LanguageModelV4Content[]) =>
  content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** The tool calls of a generated answer (input: the JSON text the model wrote). */
export const toolCallsOf = (content: LanguageModelV4Content[]) =>
  content.flatMap((part) =>
    part.type === 'tool-call' && !part.providerExecuted
      ? [{ id: part.toolCallId, name: part.toolName, input: part.input }]
      : [],
  );

/** A tool call's input as an object (what Anthropic's format carries); {} when it is not JSON. */
export function parseInput(input: string): unknown {
  try {
    return input.trim() === '' ? {} : JSON.parse(input);
  } catch {
    return {};
  }
}

/** The token counts the provider reported (undefined when it did not). */
export const tokensOf = (usage: LanguageModelV4Usage | undefined) => ({
  inputTokens: usage?.inputTokens.total,
  outputTokens: usage?.outputTokens.total,
});
