import { json, sse } from './fakes';
import { completion, weather, useOpenAiApi } from './openai-fixtures';

// The official `openai` package against models of other providers: a local server speaking
// Anthropic's, Gemini's and OpenRouter's wire formats behind the OpenAI-compatible API.
const { t, client: openai } = useOpenAiApi();

describe('any model behind the OpenAI API', () => {
  it('calls a claude model in Anthropic format, a streamed tool_use coming back as tool_calls', async () => {
    t.fake.next(
      sse(
        [
          {
            type: 'message_start',
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'claude-sonnet-4-6',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 31, output_tokens: 1 },
            },
          },
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"city": "Ro' },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: 'me"}' },
          },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: 17 },
          },
          { type: 'message_stop' },
        ],
        { named: true },
      ),
    );
    const final = await openai()
      .chat.completions.stream({
        model: 'claude-sonnet-4-6',
        messages: [
          { role: 'system', content: 'Use tools.' },
          { role: 'user', content: 'Rome?' },
        ],
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        max_tokens: 200,
        stream_options: { include_usage: true },
      })
      .finalChatCompletion();
    expect(final.choices[0].message.tool_calls?.[0]).toMatchObject({
      id: 'toolu_1',
      function: { name: 'get_weather', arguments: '{"city": "Rome"}' },
    });
    expect(final.choices[0].finish_reason).toBe('tool_calls');
    expect(final.usage).toEqual({ prompt_tokens: 31, completion_tokens: 17, total_tokens: 48 });
    expect(t.fake.seen[0].url).toBe('/messages');
    expect(t.sent(0)).toMatchObject({
      model: 'claude-sonnet-4-6',
      system: [{ type: 'text', text: 'Use tools.' }],
      max_tokens: 200,
      tool_choice: { type: 'tool', name: 'get_weather' },
      tools: [{ name: 'get_weather', input_schema: weather.function.parameters }],
    });
  });

  it('calls a Gemini model with a JSON schema, and an OpenRouter one', async () => {
    t.fake.next(
      json(200, {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: '{"n":1}' }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 6, candidatesTokenCount: 5, totalTokenCount: 11 },
      }),
    );
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const gem = await openai().chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'One' }],
      response_format: { type: 'json_schema', json_schema: { name: 'count', schema } },
    });
    expect(gem.choices[0].message.content).toBe('{"n":1}');
    expect(gem.usage).toEqual({ prompt_tokens: 6, completion_tokens: 5, total_tokens: 11 });
    expect(t.fake.seen[0].url).toBe('/models/gemini-2.5-flash:generateContent');
    expect(t.sent(0).generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', required: ['n'] },
    });

    t.fake.next(
      json(200, {
        ...completion({ content: 'routed' }, 'stop', [4, 1]),
        model: 'anthropic/claude-3.5-haiku',
        provider: 'Anthropic',
      }),
    );
    const or = await openai().chat.completions.create({
      model: 'or/anthropic/claude-3.5-haiku',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(or).toMatchObject({
      model: 'or/anthropic/claude-3.5-haiku',
      usage: { prompt_tokens: 4, completion_tokens: 1, total_tokens: 5 },
    });
    expect(t.fake.seen[1].headers.authorization).toBe('Bearer sk-or');
    expect(t.sent(1).model).toBe('anthropic/claude-3.5-haiku');
  });
});
