import type OpenAI from 'openai';
import { json, openAiChunks, sse } from './fakes';
import { completion, weather, useOpenAiApi } from './openai-fixtures';

// The official `openai` package, unmodified, pointed at the platform's OpenAI-compatible API with
// a platform key as its Bearer token; behind it a local server speaking OpenAI's wire format.
const { t, client: openai } = useOpenAiApi();

describe('chat completions against OpenAI', () => {
  it('answers with the exact usage, translating system, images, tools, tool results and options', async () => {
    t.fake.next(json(200, completion({ content: 'Sunny in Paris.' }, 'stop')));
    const res = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '21C, sun' },
      ],
      tools: [weather],
      tool_choice: 'auto',
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      max_tokens: 50,
      seed: 7,
      response_format: { type: 'json_object' },
    });
    expect(res.choices[0]).toMatchObject({
      index: 0,
      message: { role: 'assistant', content: 'Sunny in Paris.' },
      finish_reason: 'stop',
    });
    expect(res.usage).toEqual({ prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 });
    expect(res.model).toBe('gpt-4o');
    expect(t.fake.seen[0].url).toBe('/chat/completions');
    expect(t.fake.seen[0].headers.authorization).toBe('Bearer sk-oa');
    expect(t.sent(0)).toMatchObject({
      model: 'gpt-4o',
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
      max_tokens: 50,
      seed: 7,
      response_format: { type: 'json_object' },
      tool_choice: 'auto',
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', parameters: weather.function.parameters },
        },
      ],
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '21C, sun' },
      ],
    });
    const log = (await t.gw.call('GET', '/usage?limit=1', undefined, t.admin)).body.data
      .requests[0];
    expect(log).toMatchObject({
      provider: 'oa',
      kind: 'chat',
      status: 'ok',
      inputTokens: 9,
      outputTokens: 4,
      estimated: false,
    });
  });

  it('streams tool calls across chunks, then the finish, the usage chunk and [DONE]', async () => {
    const base = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o' };
    const delta = (d: object, finish: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta: d, finish_reason: finish }],
    });
    t.fake.next(
      sse(
        [
          delta({ role: 'assistant', content: 'Let me check.' }),
          delta({
            tool_calls: [
              {
                index: 0,
                id: 'call_9',
                type: 'function',
                function: { name: 'get_weather', arguments: '' },
              },
            ],
          }),
          delta({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
          delta({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
          delta({}, 'tool_calls'),
          {
            ...base,
            choices: [],
            usage: { prompt_tokens: 20, completion_tokens: 12, total_tokens: 32 },
          },
        ],
        { done: true, pauseMs: 5 },
      ),
    );
    const stream = openai().chat.completions.stream({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [weather],
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    stream.on('chunk', (c) => chunks.push(c));
    const final = await stream.finalChatCompletion();
    expect(final.choices[0].message.content).toBe('Let me check.');
    expect(final.choices[0].message.tool_calls).toEqual([
      {
        id: 'call_9',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
      },
    ]);
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.filter((c) => c.choices[0]?.delta.tool_calls).length).toBeGreaterThanOrEqual(2);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 20, completion_tokens: 12, total_tokens: 32 },
    });
    expect(t.sent(0)).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('ends the raw stream with data: [DONE] and sends no usage chunk unless asked', async () => {
    t.fake.next(
      sse(openAiChunks(['Hi', ' you'], { prompt_tokens: 3, completion_tokens: 2 }), { done: true }),
    );
    const res = await fetch(`${t.gw.base}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk-invoke', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const text = await res.text();
    expect(text.trim().endsWith('data: [DONE]')).toBe(true);
    expect(text).not.toContain('"usage"');
    expect(text).toContain('"finish_reason":"stop"');
  });
});
