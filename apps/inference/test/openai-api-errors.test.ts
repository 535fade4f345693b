import OpenAI, { toFile } from 'openai';
import { anthropicError, json, openAiError } from './fakes';
import { compatGateway, failure as failed } from './compat';

// Errors, embeddings, models, images and transcription through the official `openai` package.
let t: Awaited<ReturnType<typeof compatGateway>>;
const as = (apiKey: string) =>
  new OpenAI({ apiKey, baseURL: `${t.gw.base}/openai/v1`, maxRetries: 0 });
const messages = [{ role: 'user' as const, content: 'Hi' }];
const failure = (p: Promise<unknown>) => failed<InstanceType<typeof OpenAI.APIError>>(p);

beforeEach(async () => {
  t = await compatGateway([
    ['oa', 'openai', 'gpt-4o'],
    ['ant', 'anthropic', 'claude-sonnet-4-6'],
    ['m', 'mock', 'mock-1'],
  ]);
});
afterEach(() => t.close());

describe('errors in OpenAI shape', () => {
  it('401 without a key or with an unknown one, 403 with a key lacking the scope', async () => {
    const none = await failure(
      as('pk-unknown').chat.completions.create({ model: 'gpt-4o', messages }),
    );
    expect(none).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(none).toMatchObject({ status: 401, type: 'authentication_error' });
    const raw = await fetch(`${t.gw.base}/openai/v1/models`);
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({
      error: {
        message: expect.stringContaining('Authentication required'),
        type: 'authentication_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    const denied = await failure(
      as('pk-read').chat.completions.create({ model: 'gpt-4o', messages }),
    );
    expect(denied).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(denied).toMatchObject({ status: 403, type: 'permission_error' });
    expect(denied.message).toContain('inference:invoke');
    // The Bearer form is taken on the compatible routes only: the native ones want X-API-Key.
    const native = await fetch(`${t.gw.base}/chat`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk-invoke', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-1', messages }),
    });
    expect(native.status).toBe(401);
    expect((await native.json()).error.code).toBe('UNAUTHORIZED');
    expect(t.fake.seen).toHaveLength(0);
  });

  it('400 naming a parameter the provider cannot honour, before it is called', async () => {
    const seed = await failure(
      as('pk-invoke').chat.completions.create({ model: 'claude-sonnet-4-6', messages, seed: 1 }),
    );
    expect(seed).toBeInstanceOf(OpenAI.BadRequestError);
    expect(seed).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'seed' });
    expect(seed.message).toContain(
      'seed is not supported by model claude-sonnet-4-6 on provider ant',
    );
    const penalty = await failure(
      as('pk-invoke').chat.completions.create({
        model: 'claude-sonnet-4-6',
        messages,
        frequency_penalty: 1,
      }),
    );
    expect(penalty).toMatchObject({ status: 400, param: 'frequency_penalty' });
    const mode = await failure(
      as('pk-invoke').chat.completions.create({
        model: 'claude-sonnet-4-6',
        messages,
        response_format: { type: 'json_object' },
      }),
    );
    expect(mode).toMatchObject({ status: 400, param: 'response_format' });
    const unknown = await failure(
      as('pk-invoke').chat.completions.create({ model: 'gpt-4o', messages, logit_bias: { 1: 2 } }),
    );
    expect(unknown).toMatchObject({ status: 400, param: 'logit_bias' });
    const two = await failure(
      as('pk-invoke').chat.completions.create({ model: 'gpt-4o', messages, n: 2 }),
    );
    expect(two).toMatchObject({ status: 400, param: 'n' });
    const tools = await failure(
      as('pk-invoke').chat.completions.create({
        model: 'mock-1',
        messages,
        tools: [{ type: 'function', function: { name: 'f' } }],
      }),
    );
    expect(tools).toMatchObject({ status: 400, param: 'tools' });
    expect(t.fake.seen).toHaveLength(0);
  });

  it('400 for bad input (validation, unknown model), never a 5xx', async () => {
    const hot = await failure(
      as('pk-invoke').chat.completions.create({ model: 'gpt-4o', messages, temperature: 5 }),
    );
    expect(hot).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'temperature' });
    const nobody = await failure(
      as('pk-invoke').chat.completions.create({ model: 'llama-9', messages }),
    );
    expect(nobody).toMatchObject({ status: 400, type: 'invalid_request_error' });
    expect(nobody.message).toContain('No provider serves model llama-9');
    const orphan = await failure(
      as('pk-invoke').chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'tool', tool_call_id: 'x', content: 'r' }],
      }),
    );
    expect(orphan).toMatchObject({ status: 400, param: 'messages[0].tool_call_id' });
    const res = await fetch(`${t.gw.base}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk-invoke', 'content-type': 'application/json' },
      body: '{"model":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.type).toBe('invalid_request_error');
    const missing = await fetch(`${t.gw.base}/openai/v1/responses`, {
      method: 'POST',
      headers: { 'x-api-key': 'pk-invoke' },
    });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.type).toBe('not_found_error');
  });

  it("passes the provider's rate limit on as a 429 RateLimitError, and an outage as a 5xx", async () => {
    t.fake.next(openAiError(429, 'Rate limit reached', 'requests', 'rate_limit_exceeded'));
    const limited = await failure(
      as('pk-invoke').chat.completions.create({ model: 'gpt-4o', messages }),
    );
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(limited).toMatchObject({ status: 429, type: 'rate_limit_error' });
    t.fake.next(anthropicError(529, 'overloaded_error', 'Overloaded'));
    const down = await failure(
      as('pk-invoke').chat.completions.create({
        model: 'claude-sonnet-4-6',
        messages,
        max_tokens: 10,
      }),
    );
    expect(down).toBeInstanceOf(OpenAI.InternalServerError);
    expect(down.message).toContain('Overloaded');
  });
});

describe('embeddings, models, images, transcription', () => {
  it('embeds a string and an array, as floats and as the base64 the SDK asks for by default', async () => {
    const data = [
      { object: 'embedding', index: 0, embedding: [0.5, -0.25] },
      { object: 'embedding', index: 1, embedding: [1, 0] },
    ];
    t.fake.next(
      json(200, {
        object: 'list',
        data,
        model: 'text-embedding-3-small',
        usage: { prompt_tokens: 6, total_tokens: 6 },
      }),
    );
    const client = as('pk-invoke');
    const two = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['a b', 'c'],
      dimensions: 2,
    });
    expect(two.data.map((d) => d.embedding)).toEqual([
      [0.5, -0.25],
      [1, 0],
    ]);
    expect(two.usage).toEqual({ prompt_tokens: 6, total_tokens: 6 });
    expect(JSON.parse(t.fake.seen[0].body)).toMatchObject({
      input: ['a b', 'c'],
      dimensions: 2,
      encoding_format: 'float',
    });
    t.fake.next(
      json(200, {
        object: 'list',
        data: data.slice(0, 1),
        model: 'text-embedding-3-small',
        usage: { prompt_tokens: 2, total_tokens: 2 },
      }),
    );
    const one = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'a b',
      encoding_format: 'float',
    });
    expect(one.data[0].embedding).toEqual([0.5, -0.25]);
    const mock = await client.embeddings.create({
      model: 'mock-embed-1',
      input: 'x',
      providerId: 'm',
    } as never);
    expect(mock.data[0].embedding).toHaveLength(8);
    const dims = await failure(
      client.embeddings.create({
        model: 'mock-embed-1',
        input: 'x',
        dimensions: 3,
        providerId: 'm',
      } as never),
    );
    expect(dims).toMatchObject({ status: 400, param: 'dimensions' });
  });

  it('lists the models it routes', async () => {
    const list = await as('pk-invoke').models.list();
    const ids = list.data.map((m) => m.id);
    expect(ids).toEqual(
      expect.arrayContaining(['gpt-4o', 'claude-sonnet-4-6', 'mock-1', 'mock-embed-1']),
    );
    expect(list.data[0]).toMatchObject({
      object: 'model',
      owned_by: expect.any(String),
      created: expect.any(Number),
    });
  });

  it('generates images as b64_json and transcribes multipart audio', async () => {
    const client = as('pk-invoke');
    const images = await client.images.generate({
      model: 'mock-image-1',
      prompt: 'a cat',
      n: 2,
      providerId: 'm',
    } as never);
    expect(images.data).toHaveLength(2);
    expect(images.data?.[0].b64_json).toMatch(/^iVBOR/);
    const url = await failure(
      client.images.generate({
        model: 'mock-image-1',
        prompt: 'a cat',
        response_format: 'url',
        providerId: 'm',
      } as never),
    );
    expect(url).toMatchObject({ status: 400, param: 'response_format' });
    t.fake.next(json(200, { text: 'hello world', language: 'english', duration: 1.5 }));
    const text = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(Buffer.from('RIFFfakeaudio'), 'a.wav'),
      language: 'en',
    });
    expect(text.text).toBe('hello world');
    expect(t.fake.seen.at(-1)!.url).toBe('/audio/transcriptions');
  });
});
