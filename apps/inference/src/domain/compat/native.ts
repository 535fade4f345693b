import type { LanguageModelV4Message } from '@ai-sdk/provider';
import { badRequest } from '@platform/core';
import { imagePart, type Generation } from '../chat-model.js';
import type { ParamNames } from './honoured.js';

/** A part of a native message's content (a plain string is one text part). */
export type NativePart =
  | { type: 'text'; text: string }
  | { type: 'image'; url: string }
  | { type: 'tool-call'; id: string; name: string; input: unknown }
  | { type: 'tool-result'; id: string; name: string; output: string; isError?: boolean };

/** The native chat's body (`/chat`, `/chat/stream`): messages and the generation's options. */
export interface NativeChat {
  messages: Array<{ role: string; content: string | NativePart[] }>;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  tools?: Array<{ name: string; description?: string; parameters?: object }>;
  toolChoice?: 'auto' | 'none' | 'required' | { name: string };
  responseFormat?:
    { type: 'text' } | { type: 'json'; schema?: object; name?: string; description?: string };
}

/** The native options by their own names (what a 400 says). */
export const NATIVE_NAMES: ParamNames = {
  maxOutputTokens: 'maxTokens',
  stopSequences: 'stop',
  images: 'image url',
};

const parts = (content: string | NativePart[]): NativePart[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

function message(m: NativeChat['messages'][number], i: number): LanguageModelV4Message {
  const all = parts(m.content);
  const only = (allowed: string[]) =>
    all.forEach((p, j) => {
      if (!allowed.includes(p.type))
        throw badRequest(
          `Invalid parameter: messages[${i}].content[${j}].type: ${m.role} messages take ${allowed.join(', ')}`,
        );
    });
  if (m.role === 'system') {
    only(['text']);
    return { role: 'system', content: all.map((p) => (p as { text: string }).text).join('') };
  }
  if (m.role === 'user') {
    only(['text', 'image']);
    return {
      role: 'user',
      content: all.map((p, j) =>
        p.type === 'image'
          ? imagePart(p.url, `messages[${i}].content[${j}].url`)
          : { type: 'text', text: (p as { text: string }).text },
      ),
    };
  }
  if (m.role === 'assistant') {
    only(['text', 'tool-call']);
    return {
      role: 'assistant',
      content: all.map((p) =>
        p.type === 'tool-call'
          ? { type: 'tool-call' as const, toolCallId: p.id, toolName: p.name, input: p.input }
          : { type: 'text' as const, text: (p as { text: string }).text },
      ),
    };
  }
  only(['tool-result']);
  return {
    role: 'tool',
    content: all.map((p) => {
      const r = p as Extract<NativePart, { type: 'tool-result' }>;
      return {
        type: 'tool-result' as const,
        toolCallId: r.id,
        toolName: r.name,
        output: { type: r.isError ? 'error-text' : 'text', value: r.output },
      };
    }),
  };
}

/** A native chat as the language-model call options. */
export function fromNative(body: NativeChat): Generation {
  const choice = body.toolChoice;
  return {
    prompt: body.messages.map(message),
    maxOutputTokens: body.maxTokens,
    temperature: body.temperature,
    topP: body.topP,
    topK: body.topK,
    stopSequences: body.stop,
    seed: body.seed,
    presencePenalty: body.presencePenalty,
    frequencyPenalty: body.frequencyPenalty,
    tools: body.tools?.map((t) => ({
      type: 'function' as const,
      name: t.name,
      description: t.description,
      inputSchema: t.parameters ?? { type: 'object', properties: {} },
    })),
    toolChoice:
      choice === undefined
        ? undefined
        : typeof choice === 'string'
          ? { type: choice }
          : { type: 'tool', toolName: choice.name },
    responseFormat: body.responseFormat,
  };
}
