import { compatGateway } from './compat';

// Malformed requests on every compatible route: an error in the client's shape, never a 5xx, and
// no provider is called.

let t: Awaited<ReturnType<typeof compatGateway>>;
beforeAll(async () => {
  t = await compatGateway([
    ['oa', 'openai', 'gpt-4o'],
    ['ant', 'anthropic', 'claude-sonnet-4-6'],
    ['m', 'mock', 'mock-1'],
  ]);
});
afterAll(() => t.close());
const bodies: unknown[] = [
  {},
  [],
  'x',
  1,
  null,
  { model: 'gpt-4o' },
  { model: 'gpt-4o', messages: [] },
  { model: 'gpt-4o', messages: [{}] },
  { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image_url' }] }] },
  { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: 5 }] }] },
  {
    model: 'gpt-4o',
    messages: [
      { role: 'assistant', tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{' } }] },
    ],
  },
  { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function' }] },
  {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'x' }],
    tool_choice: { type: 'function' },
  },
  {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'x' }],
    response_format: { type: 'json_schema' },
  },
  {
    model: 'claude-sonnet-4-6',
    max_tokens: 5,
    messages: [{ role: 'user', content: [{ type: 'image', source: {} }] }],
  },
  {
    model: 'claude-sonnet-4-6',
    max_tokens: 5,
    messages: [{ role: 'user', content: [{ type: 'tool_result' }] }],
  },
  {
    model: 'claude-sonnet-4-6',
    max_tokens: 5,
    messages: [{ role: 'assistant', content: [{ type: 'tool_use' }] }],
  },
  {
    model: 'claude-sonnet-4-6',
    max_tokens: 5,
    messages: [{ role: 'user', content: 'x' }],
    tools: [{ name: 'f' }],
  },
  {
    model: 'claude-sonnet-4-6',
    max_tokens: 5,
    messages: [{ role: 'user', content: 'x' }],
    tool_choice: { type: 'zzz' },
  },
  {
    model: 'claude-sonnet-4-6',
    max_tokens: 5,
    messages: [{ role: 'user', content: 'x' }],
    system: [{ type: 'image' }],
  },
  { model: 'mock-embed-1', input: [] },
  { model: 'mock-embed-1', input: [1, 2] },
  { prompt: 'x', size: 'big' },
  { model: 'gpt-4o', messages: [{ role: 'tool', content: 'x' }] },
  { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stop: [1] },
];
it('never answers 5xx to bad input on the compatible routes', async () => {
  const bad: string[] = [];
  for (const path of [
    '/openai/v1/chat/completions',
    '/openai/v1/embeddings',
    '/openai/v1/images/generations',
    '/openai/v1/audio/transcriptions',
    '/anthropic/v1/messages',
    '/anthropic/v1/messages/count_tokens',
  ])
    for (const b of bodies) {
      const res = await fetch(`${t.gw.base}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': 'pk-invoke', 'content-type': 'application/json' },
        body: JSON.stringify(b),
      });
      const text = await res.text();
      if (res.status >= 500 || !text.includes('"error"'))
        bad.push(
          `${path} ${JSON.stringify(b).slice(0, 80)} -> ${res.status} ${text.slice(0, 200)}`,
        );
    }
  expect(bad).toEqual([]);
  expect(t.fake.seen).toHaveLength(0);
});
