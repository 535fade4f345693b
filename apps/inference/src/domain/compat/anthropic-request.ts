import type {
  LanguageModelV4Message,
  LanguageModelV4ToolChoice,
  LanguageModelV4ToolResultPart,
} from '@ai-sdk/provider';
import { badRequest } from '@platform/core';
import { imagePart, type Generation } from '../chat-model.js';
import type { ParamNames } from './honoured.js';

type Block = {
  type: string;
  text?: string;
  source?: { type: string; media_type?: string; data?: string; url?: string };
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: string | Block[];
  is_error?: boolean;
};
export interface AnthropicRequest {
  model: string;
  messages: Array<{ role: string; content: string | Block[] }>;
  system?: string | Block[];
  [key: string]: unknown;
}

/** The generation's options as Anthropic names them (what a 400 says). */
export const ANTHROPIC_NAMES: ParamNames = {
  maxOutputTokens: 'max_tokens',
  temperature: 'temperature',
  topP: 'top_p',
  topK: 'top_k',
  stopSequences: 'stop_sequences',
  tools: 'tools',
  toolChoice: 'tool_choice',
  images: 'image source url',
};

const READ = new Set([
  'model',
  'messages',
  'system',
  'max_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'tools',
  'tool_choice',
  'stream',
  'metadata',
  'providerId',
  'fallbacks',
]);

const invalid = (param: string, why: string) => badRequest(`Invalid parameter: ${param}: ${why}`);

const textOfBlocks = (content: string | Block[] | undefined, where: string) =>
  typeof content === 'string' || content === undefined
    ? (content ?? '')
    : content
        .map((b, j) => {
          if (b.type !== 'text')
            throw badRequest(`Unsupported parameter: ${where}[${j}].type ${b.type} (text is)`);
          return b.text ?? '';
        })
        .join('');

function image(b: Block, where: string) {
  const s = b.source;
  if (s?.type === 'base64' && s.media_type && s.data)
    return imagePart(`data:${s.media_type};base64,${s.data}`, `${where}.source`);
  if (s?.type === 'url' && s.url) return imagePart(s.url, `${where}.source.url`);
  throw invalid(`${where}.source`, 'base64 (media_type, data) or url is expected');
}

function turn(
  m: AnthropicRequest['messages'][number],
  i: number,
  names: Map<string, string>,
): LanguageModelV4Message[] {
  const where = `messages[${i}].content`;
  const blocks: Block[] =
    typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
  if (m.role === 'assistant')
    return [
      {
        role: 'assistant',
        content: blocks.map((b, j) => {
          if (b.type === 'text') return { type: 'text' as const, text: b.text ?? '' };
          if (b.type === 'tool_use' && b.id && b.name) {
            names.set(b.id, b.name);
            return {
              type: 'tool-call' as const,
              toolCallId: b.id,
              toolName: b.name,
              input: b.input ?? {},
            };
          }
          throw badRequest(
            `Unsupported parameter: ${where}[${j}].type ${b.type} (text and tool_use are)`,
          );
        }),
      },
    ];
  if (m.role !== 'user') throw invalid(`messages[${i}].role`, 'user or assistant');
  // Tool results travel in user turns in Anthropic's format, in tool turns in the specification.
  const out: LanguageModelV4Message[] = [];
  const results: LanguageModelV4ToolResultPart[] = [];
  const user: Array<Extract<LanguageModelV4Message, { role: 'user' }>['content'][number]> = [];
  blocks.forEach((b, j) => {
    if (b.type === 'tool_result') {
      const id = b.tool_use_id ?? '';
      const toolName = names.get(id);
      if (!toolName)
        throw invalid(`${where}[${j}].tool_use_id`, `no earlier tool_use has the id ${id}`);
      const value = textOfBlocks(b.content, `${where}[${j}].content`);
      results.push({
        type: 'tool-result',
        toolCallId: id,
        toolName,
        output: { type: b.is_error ? 'error-text' : 'text', value },
      });
    } else if (b.type === 'text') user.push({ type: 'text', text: b.text ?? '' });
    else if (b.type === 'image') user.push(image(b, `${where}[${j}]`));
    else
      throw badRequest(
        `Unsupported parameter: ${where}[${j}].type ${b.type} (text, image and tool_result are)`,
      );
  });
  if (results.length) out.push({ role: 'tool', content: results });
  if (user.length) out.push({ role: 'user', content: user });
  return out;
}

function toolChoice(choice: unknown): LanguageModelV4ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  const c = choice as { type?: string; name?: string; disable_parallel_tool_use?: boolean };
  if (c.disable_parallel_tool_use)
    throw badRequest('Unsupported parameter: tool_choice.disable_parallel_tool_use');
  if (c.type === 'auto' || c.type === 'none') return { type: c.type };
  if (c.type === 'any') return { type: 'required' };
  if (c.type === 'tool' && c.name) return { type: 'tool', toolName: c.name };
  throw invalid('tool_choice', 'auto, any, none or {type: "tool", name}');
}

/** An Anthropic messages request as the language-model call options (400 naming what cannot be). */
export function fromAnthropic(body: AnthropicRequest): Generation {
  for (const key of Object.keys(body))
    if (!READ.has(key) && body[key] !== undefined && body[key] !== null)
      throw badRequest(`Unsupported parameter: ${key} is not supported by this API`);
  const names = new Map<string, string>();
  const system =
    body.system === undefined
      ? []
      : [{ role: 'system' as const, content: textOfBlocks(body.system, 'system') }];
  const num = (key: string) => (typeof body[key] === 'number' ? (body[key] as number) : undefined);
  const tools = body.tools as
    Array<{ name: string; description?: string; input_schema?: object; type?: string }> | undefined;
  return {
    prompt: [...system, ...body.messages.flatMap((m, i) => turn(m, i, names))],
    maxOutputTokens: num('max_tokens'),
    temperature: num('temperature'),
    topP: num('top_p'),
    topK: num('top_k'),
    stopSequences: body.stop_sequences as string[] | undefined,
    tools: tools?.map((t, i) => {
      if (t.type !== undefined && t.type !== 'custom')
        throw badRequest(`Unsupported parameter: tools[${i}].type ${t.type}`);
      if (!t.input_schema) throw invalid(`tools[${i}].input_schema`, 'is required');
      return {
        type: 'function' as const,
        name: t.name,
        description: t.description,
        inputSchema: t.input_schema,
      };
    }),
    toolChoice: toolChoice(body.tool_choice),
  };
}
