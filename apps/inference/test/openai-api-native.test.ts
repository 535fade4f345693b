import { json, readEvents, sse } from './fakes';
import { compatGateway } from './compat';

// The native /chat, /chat/stream and /embed take the options the compatible APIs take, under
// their own names, with the same 400 for what the provider cannot honour.
let t: Awaited<ReturnType<typeof compatGateway>>;
const KEY = { 'x-api-key': 'pk-invoke' };
beforeEach(async () => {
  t = await compatGateway([
    ['oa', 'openai', 'gpt-4o'],
    ['ant', 'anthropic', 'claude-sonnet-4-6'],
  ]);
});
afterEach(() => t.close());

const tools = [
  {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
];

describe('native options', () => {
  it('/chat passes options, images and tool turns on, and answers tool calls', async () => {
    t.fake.next(
      json(200, {
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_2',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Nice"}' },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 30, completion_tokens: 8, total_tokens: 38 },
      }),
    );
    const res = await t.gw.call(
      'POST',
      '/chat',
      {
        model: 'gpt-4o',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'And Nice?' },
              { type: 'image', url: 'https://example.com/a.png' },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'tool-call', id: 'call_1', name: 'get_weather', input: { city: 'Metz' } },
            ],
          },
          {
            role: 'tool',
            content: [{ type: 'tool-result', id: 'call_1', name: 'get_weather', output: '12C' }],
          },
        ],
        tools,
        toolChoice: 'required',
        temperature: 0.1,
        topP: 0.5,
        stop: ['##'],
        seed: 3,
        maxTokens: 40,
        responseFormat: { type: 'json' },
      },
      KEY,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      content: '',
      toolCalls: [{ id: 'call_2', name: 'get_weather', input: '{"city":"Nice"}' }],
      finishReason: 'tool-calls',
      usage: { inputTokens: 30, outputTokens: 8 },
    });
    expect(t.sent(0)).toMatchObject({
      temperature: 0.1,
      top_p: 0.5,
      stop: ['##'],
      seed: 3,
      max_tokens: 40,
      tool_choice: 'required',
      response_format: { type: 'json_object' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And Nice?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
        { role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'get_weather' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '12C' },
      ],
    });
  });

  it('/chat/stream sends a tool_call event; what the provider cannot honour is a 400 naming it', async () => {
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
              usage: { input_tokens: 12, output_tokens: 1 },
            },
          },
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_5', name: 'get_weather', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"city":"Bern"}' },
          },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: 6 },
          },
          { type: 'message_stop' },
        ],
        { named: true },
      ),
    );
    const res = await fetch(`${t.gw.base}/chat/stream`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-sonnet-4-6',
        messages: [{ role: 'user', content: 'Bern?' }],
        tools,
      }),
    });
    expect(await readEvents(res)).toEqual([
      {
        type: 'tool_call',
        toolCall: { id: 'toolu_5', name: 'get_weather', input: '{"city":"Bern"}' },
      },
      {
        type: 'message_stop',
        usage: { inputTokens: 12, outputTokens: 6 },
        requestId: expect.any(String),
      },
    ]);
    const seeded = await t.gw.call(
      'POST',
      '/chat',
      { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'x' }], seed: 4 },
      KEY,
    );
    expect(seeded.status).toBe(400);
    expect(seeded.body.error.message).toMatch(
      /^Unsupported parameter: seed is not supported by model claude-sonnet-4-6 on provider ant/,
    );
    const url = await t.gw.call(
      'POST',
      '/chat',
      {
        model: 'gpt-4o',
        messages: [{ role: 'user', content: [{ type: 'image', url: 'ftp://x/y.png' }] }],
      },
      KEY,
    );
    expect(url.status).toBe(400);
    expect(t.fake.seen).toHaveLength(1);
  });

  it('/embed passes dimensions on, and refuses them where the provider has none', async () => {
    t.fake.next(
      json(200, {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }],
        model: 'text-embedding-3-small',
        usage: { prompt_tokens: 2, total_tokens: 2 },
      }),
    );
    const res = await t.gw.call(
      'POST',
      '/embed',
      { model: 'text-embedding-3-small', input: 'hi', dimensions: 2 },
      KEY,
    );
    expect(res.body.data).toMatchObject({ embedding: [0.1, 0.2], usage: { inputTokens: 2 } });
    expect(t.sent(0)).toMatchObject({ dimensions: 2 });
    const none = await t.gw.call(
      'POST',
      '/embed',
      { model: 'claude-sonnet-4-6', input: 'hi', dimensions: 2 },
      KEY,
    );
    expect(none.status).toBe(400);
    expect(t.fake.seen).toHaveLength(1);
  });
});
