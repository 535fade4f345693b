import Anthropic from '@anthropic-ai/sdk';
import { json, sse } from './fakes';
import { compatGateway, failure as failed } from './compat';

// The official `@anthropic-ai/sdk`, unmodified, pointed at the platform's Anthropic-compatible
// API with a platform key in x-api-key (as it sends it) or as a Bearer token (authToken); behind
// it a local server speaking Anthropic's, OpenAI's and Gemini's wire formats.
let t: Awaited<ReturnType<typeof compatGateway>>;
const as = (apiKey: string) =>
  new Anthropic({ apiKey, baseURL: `${t.gw.base}/anthropic`, maxRetries: 0 });
const failure = (p: Promise<unknown>) => failed<InstanceType<typeof Anthropic.APIError>>(p);
const weather = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: {
    type: 'object' as const,
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

beforeEach(async () => {
  t = await compatGateway([
    ['oa', 'openai', 'gpt-4o'],
    ['ant', 'anthropic', 'claude-sonnet-4-6'],
    ['gem', 'google', 'gemini-2.5-flash'],
  ]);
});
afterEach(() => t.close());

describe('messages against Anthropic', () => {
  it('answers text and tool_use with the exact usage, translating system, images and tool results', async () => {
    t.fake.next(
      json(200, {
        id: 'msg_up',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Lima' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 40, output_tokens: 12 },
      }),
    );
    const message = await as('pk-invoke').messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 300,
      system: 'Be brief.',
      // Sampling parameters are gone from this SDK's types (newer Claude models refuse them); the
      // wire format still has them, and other models take them.
      ...({ temperature: 0.3, top_k: 5 } as object),
      stop_sequences: ['END'],
      tools: [weather],
      tool_choice: { type: 'any' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
            },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Quito' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' }],
        },
      ],
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Lima' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 40, output_tokens: 12 },
    });
    expect(t.fake.seen[0].url).toBe('/messages');
    expect(t.fake.seen[0].headers['x-api-key']).toBe('sk-ant');
    expect(t.sent(0)).toMatchObject({
      model: 'claude-sonnet-4-6',
      max_tokens: 300,
      // Sampling parameters are gone from this SDK's types (newer Claude models refuse them); the
      // wire format still has them, and other models take them.
      ...({ temperature: 0.3, top_k: 5 } as object),
      stop_sequences: ['END'],
      system: [{ type: 'text', text: 'Be brief.' }],
      tool_choice: { type: 'any' },
      tools: [{ name: 'get_weather', input_schema: weather.input_schema }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
            },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Quito' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' }],
        },
      ],
    });
  });

  it('counts tokens without calling anyone', async () => {
    const counted = await as('pk-invoke').messages.countTokens({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'How many tokens is this?' }],
      tools: [weather],
    });
    expect(counted.input_tokens).toBeGreaterThan(10);
    expect(t.fake.seen).toHaveLength(0);
  });
});

describe('any model behind the Anthropic API', () => {
  it('streams a gpt model: text, then a tool call across chunks as a tool_use block, with every event type', async () => {
    const base = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o' };
    const delta = (d: object, finish: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta: d, finish_reason: finish }],
    });
    t.fake.next(
      sse(
        [
          delta({ role: 'assistant', content: 'On it.' }),
          delta({
            tool_calls: [
              {
                index: 0,
                id: 'call_7',
                type: 'function',
                function: { name: 'get_weather', arguments: '' },
              },
            ],
          }),
          delta({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
          delta({ tool_calls: [{ index: 0, function: { arguments: '"Lagos"}' } }] }),
          delta({}, 'tool_calls'),
          {
            ...base,
            choices: [],
            usage: { prompt_tokens: 25, completion_tokens: 9, total_tokens: 34 },
          },
        ],
        { done: true, pauseMs: 5 },
      ),
    );
    // Bearer this time (the SDK's authToken), as other Anthropic clients send the key.
    const client = new Anthropic({
      authToken: 'pk-invoke',
      apiKey: null,
      baseURL: `${t.gw.base}/anthropic`,
      maxRetries: 0,
    });
    const stream = client.messages.stream({
      model: 'gpt-4o',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Weather in Lagos?' }],
      tools: [weather],
    });
    const types: string[] = [];
    stream.on('streamEvent', (e) => types.push(e.type));
    const final = await stream.finalMessage();
    expect(final.content).toEqual([
      { type: 'text', text: 'On it.' },
      { type: 'tool_use', id: 'call_7', name: 'get_weather', input: { city: 'Lagos' } },
    ]);
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage).toMatchObject({ input_tokens: 25, output_tokens: 9 });
    expect(types[0]).toBe('message_start');
    expect(types).toEqual(
      expect.arrayContaining([
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]),
    );
    expect(types.at(-1)).toBe('message_stop');
    expect(t.sent(0)).toMatchObject({ model: 'gpt-4o', stream: true, max_tokens: 100 });
  });

  it('calls a Gemini model, and ends a stream broken mid-way with an error event', async () => {
    t.fake.next(
      json(200, {
        candidates: [
          { content: { role: 'model', parts: [{ text: 'Hola' }] }, finishReason: 'STOP', index: 0 },
        ],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
      }),
    );
    const gem = await as('pk-invoke').messages.create({
      model: 'gemini-2.5-flash',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(gem).toMatchObject({
      content: [{ type: 'text', text: 'Hola' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 3, output_tokens: 2 },
    });
    t.fake.next(
      sse(
        [
          {
            type: 'message_start',
            message: {
              id: 'm',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-6',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 5, output_tokens: 1 },
            },
          },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
          { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        ],
        { named: true },
      ),
    );
    const broken = await failure(
      as('pk-invoke')
        .messages.stream({
          model: 'claude-sonnet-4-6',
          max_tokens: 20,
          messages: [{ role: 'user', content: 'Hi' }],
        })
        .finalMessage(),
    );
    expect(broken).toBeInstanceOf(Anthropic.APIError);
    expect(broken.type).toBe('overloaded_error');
  });
});
