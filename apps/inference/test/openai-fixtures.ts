import OpenAI from 'openai';
import { useService } from '@platform/testing';
import { compatGateway } from './compat';

/**
 * For each test: the service (a stand-in passport in front) with OpenAI, Anthropic, Gemini and
 * OpenRouter providers on a local server speaking each one's wire format, and the official
 * `openai` client pointed at its OpenAI-compatible API with an invoking key as its Bearer token.
 */
export function useOpenAiApi() {
  const t = useService(() =>
    compatGateway([
      ['oa', 'openai', 'gpt-4o'],
      ['ant', 'anthropic', 'claude-sonnet-4-6'],
      ['gem', 'google', 'gemini-2.5-flash'],
      ['or', 'openrouter', 'openai/gpt-4o'],
    ]),
  );
  const client = () =>
    new OpenAI({ apiKey: 'pk-invoke', baseURL: `${t.gw.base}/openai/v1`, maxRetries: 0 });
  return { t, client };
}

export const completion = (message: object, finish: string, usage = [9, 4]) => ({
  id: 'chatcmpl-up',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  usage: {
    prompt_tokens: usage[0],
    completion_tokens: usage[1],
    total_tokens: usage[0] + usage[1],
  },
});
export const weather = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
