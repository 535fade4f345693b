import type {
  LanguageModelV4Message,
  LanguageModelV4ToolChoice,
  LanguageModelV4ToolResultPart,
} from '@ai-sdk/provider';
import { badRequest } from '@platform/core';
import { imagePart, type Generation } from '../chat-model.js';
import type { ParamNames } from './honoured.js';

/** An OpenAI chat-completions request as it comes (validated loosely by its schema). */
export interface OpenAIChatRequest {
  model: string;
  messages: OpenAIMessage[];
  [key: string]: unknown;
}
type Part = { type: string; text?: string; image_url?: { url: string } | string };
type ToolCall = { id: string; type?: string; function: { name: string; arguments?: string } };
export type OpenAIMessage = {
  role: string;
  content?: string | Part[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
};

/** The generation's options as OpenAI names them (what a 400 says). */
export const OPENAI_NAMES: ParamNames = {
  maxOutputTokens: 'max_tokens',
  temperature: 'temperature',
  topP: 'top_p',
  stopSequences: 'stop',
  seed: 'seed',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
  tools: 'tools',
  toolChoice: 'tool_choice',
  responseFormat: 'response_format',
  images: 'image_url',
};

/** Parameters read here, and those accepted as they are (they change nothing of the answer). */
const READ = new Set([
  'model',
  'messages',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'tools',
  'tool_choice',
  'response_format',
  'stream',
  'stream_options',
  'n',
  'user',
  'parallel_tool_calls',
  'providerId',
  'fallbacks',
]);

const invalid = (param: string, why: string) => badRequest(`Invalid parameter: ${param}: ${why}`);

function text(content: OpenAIMessage['content'], where: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((p, j) => {
      if (p.type !== 'text')
        throw invalid(`${where}[${j}].type`, 'only text parts are accepted here');
      return p.text ?? '';
    })
    .join('');
}

function message(
  m: OpenAIMessage,
  i: number,
  toolNames: Map<string, string>,
): LanguageModelV4Message {
  const where = `messages[${i}].content`;
  switch (m.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: text(m.content, where) };
    case 'user': {
      if (typeof m.content === 'string' || !m.content)
        return { role: 'user', content: [{ type: 'text', text: m.content ?? '' }] };
      return {
        role: 'user',
        content: m.content.map((p, j) => {
          if (p.type === 'text') return { type: 'text' as const, text: p.text ?? '' };
          if (p.type === 'image_url') {
            const url = typeof p.image_url === 'string' ? p.image_url : p.image_url?.url;
            if (!url) throw invalid(`${where}[${j}].image_url`, 'url is required');
            return imagePart(url, `${where}[${j}].image_url`);
          }
          throw badRequest(
            `Unsupported parameter: ${where}[${j}].type ${p.type} (text and image_url are)`,
          );
        }),
      };
    }
    case 'assistant': {
      const said = text(m.content, where);
      const calls = (m.tool_calls ?? []).map((c) => {
        toolNames.set(c.id, c.function.name);
        let input: unknown;
        try {
          input = JSON.parse(c.function.arguments || '{}');
        } catch {
          throw invalid(`messages[${i}].tool_calls`, `the arguments of ${c.id} are not JSON`);
        }
        return { type: 'tool-call' as const, toolCallId: c.id, toolName: c.function.name, input };
      });
      return {
        role: 'assistant',
        content: [...(said ? [{ type: 'text' as const, text: said }] : []), ...calls],
      };
    }
    case 'tool': {
      const id = m.tool_call_id;
      if (!id) throw invalid(`messages[${i}].tool_call_id`, 'is required for a tool message');
      const toolName = toolNames.get(id);
      if (!toolName)
        throw invalid(`messages[${i}].tool_call_id`, `no earlier assistant message calls ${id}`);
      const part: LanguageModelV4ToolResultPart = {
        type: 'tool-result',
        toolCallId: id,
        toolName,
        output: { type: 'text', value: text(m.content, where) },
      };
      return { role: 'tool', content: [part] };
    }
    default:
      throw badRequest(`Unsupported parameter: messages[${i}].role ${m.role}`);
  }
}

/** Consecutive tool messages are one tool turn of the prompt. */
function merged(prompt: LanguageModelV4Message[]) {
  const out: LanguageModelV4Message[] = [];
  for (const m of prompt) {
    const last = out.at(-1);
    if (m.role === 'tool' && last?.role === 'tool') last.content.push(...m.content);
    else out.push(m);
  }
  return out;
}

function toolChoice(choice: unknown): LanguageModelV4ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { type: choice };
  const name = (choice as { function?: { name?: unknown } }).function?.name;
  if (typeof name === 'string') return { type: 'tool', toolName: name };
  throw invalid('tool_choice', 'auto, none, required or {type: "function", function: {name}}');
}

function responseFormat(format: unknown): Generation['responseFormat'] {
  if (format === undefined || format === null) return undefined;
  const f = format as {
    type?: string;
    json_schema?: { name?: string; description?: string; schema?: object };
  };
  if (f.type === 'text') return { type: 'text' };
  if (f.type === 'json_object') return { type: 'json' };
  if (f.type === 'json_schema' && f.json_schema?.schema)
    return {
      type: 'json',
      schema: f.json_schema.schema,
      name: f.json_schema.name,
      description: f.json_schema.description,
    };
  throw invalid('response_format', 'text, json_object, or json_schema with json_schema.schema');
}

/** An OpenAI chat request as the language-model call options (400 naming what cannot be). */
export function fromOpenAIChat(body: OpenAIChatRequest): Generation {
  for (const key of Object.keys(body))
    if (!READ.has(key) && body[key] !== undefined && body[key] !== null)
      throw badRequest(`Unsupported parameter: ${key} is not supported by this API`);
  // Off, it would limit the answer to one tool call: not something every provider can be told.
  if (body.parallel_tool_calls === false)
    throw badRequest('Unsupported parameter: parallel_tool_calls: false is not supported');
  if (body.n !== undefined && body.n !== null && body.n !== 1)
    throw badRequest('Unsupported parameter: n: only one choice (n=1) is generated');
  const toolNames = new Map<string, string>();
  const stop = body.stop as string | string[] | undefined | null;
  const tools = body.tools as
    | Array<{
        type: string;
        function: { name: string; description?: string; parameters?: object; strict?: boolean };
      }>
    | undefined;
  const num = (key: string) => (typeof body[key] === 'number' ? (body[key] as number) : undefined);
  return {
    prompt: merged(body.messages.map((m, i) => message(m, i, toolNames))),
    maxOutputTokens: num('max_completion_tokens') ?? num('max_tokens'),
    temperature: num('temperature'),
    topP: num('top_p'),
    stopSequences: stop === undefined || stop === null ? undefined : [stop].flat(),
    seed: num('seed'),
    presencePenalty: num('presence_penalty'),
    frequencyPenalty: num('frequency_penalty'),
    tools: tools?.map((t, i) => {
      if (t.type !== 'function')
        throw badRequest(`Unsupported parameter: tools[${i}].type ${t.type}`);
      return {
        type: 'function' as const,
        name: t.function.name,
        description: t.function.description,
        inputSchema: (t.function.parameters ?? { type: 'object', properties: {} }) as object,
        ...(t.function.strict === undefined ? {} : { strict: t.function.strict }),
      };
    }),
    toolChoice: toolChoice(body.tool_choice),
    responseFormat: responseFormat(body.response_format),
  };
}
