import type { FastifyBaseLogger } from 'fastify';
import { eventually } from '@platform/testing';
import type { InferenceDatabase, InferenceDb } from '../src/database';
import { RequestLog } from '../src/domain/request-log';
import type { NewRequest } from '../src/repositories/requests';
import { fakeProvider, gateway, type Fake } from './fakes';

let fake: Fake;
let gw: Awaited<ReturnType<typeof gateway>>;
/** URLs whose provider request was closed by the gateway before it was answered. */
const closed: string[] = [];
beforeAll(async () => {
  // Hangs: answers nothing, notes when the gateway gives up on the request.
  fake = await fakeProvider((req, res) => res.on('close', () => closed.push(req.url)));
  gw = await gateway({
    INFERENCE_BASE_URLS: fake.url,
    INFERENCE_KEY_OA: 'sk-oa',
    INFERENCE_TIMEOUT_MS: '20000',
  });
  const oa = { name: 'oa', type: 'openai', defaultModel: 'gpt-4o', envVar: 'INFERENCE_KEY_OA' };
  expect((await gw.call('POST', '/providers', { ...oa, baseUrl: fake.url })).status).toBe(201);
});
afterAll(async () => {
  await gw.svc.close();
  await fake.close();
});

const db = () => gw.svc.db.schema<InferenceDatabase>('inference') as unknown as InferenceDb;

describe('a client that goes away from a non-streamed call', () => {
  it.each([
    [
      '/chat',
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      '/chat/completions',
    ],
    ['/embed', { model: 'text-embedding-3-small', input: 'hi' }, '/embeddings'],
    ['/images', { model: 'gpt-image-1', prompt: 'a cat' }, '/images/generations'],
    [
      '/transcribe',
      { model: 'whisper-1', audio: Buffer.from('RIFFfake').toString('base64') },
      '/audio/transcriptions',
    ],
  ])(
    '%s: aborts the provider call at once and logs it as aborted',
    async (path, body, upstream) => {
      const seen = fake.seen.length;
      const client = new AbortController();
      const started = Date.now();
      const answer = fetch(`${gw.base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-request-id': `gone${path.replace('/', '-')}`,
        },
        body: JSON.stringify(body),
        signal: client.signal,
      }).catch((error: Error) => error);
      await eventually(() => fake.seen.length > seen);
      expect(fake.seen.at(-1)!.url).toBe(upstream);
      client.abort();
      expect(await answer).toMatchObject({ name: 'AbortError' });
      await eventually(() => closed.includes(upstream)).catch(() => {
        throw new Error(`provider call not closed: ${closed.join()}`);
      });
      const row = await eventually(async () => {
        const last = (await gw.call('GET', '/usage?limit=1')).body.data.requests[0];
        return last?.requestId === `gone${path.replace('/', '-')}` && last;
      });
      expect(row).toMatchObject({ status: 'aborted', error: 'The client closed the connection' });
      expect(Date.now() - started).toBeLessThan(5000); // not the 20 s time limit
    },
  );
});

describe('the request log writer', () => {
  const logged: Array<{ obj: unknown; msg: string }> = [];
  const log = {
    error: (obj: unknown, msg: string) => void logged.push({ obj, msg }),
  } as unknown as FastifyBaseLogger;
  let n = 0;
  const row = (fields: Partial<NewRequest> = {}): NewRequest => ({
    id: `log${String(++n).padStart(5, '0')}`,
    provider_id: null,
    provider: 'mock',
    model: 'mock-1',
    kind: 'chat',
    status: 'ok',
    input_tokens: 1,
    output_tokens: 1,
    estimated: false,
    attempts: 1,
    duration_ms: 1,
    ttft_ms: null,
    cost_micros: null,
    error: null,
    request_id: 'r',
    app: null,
    created_at: new Date(),
    ...fields,
  });
  const stored = (id: string) =>
    db().selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirst();

  it('takes U+0000 out of every text column', async () => {
    const writer = new RequestLog(db(), log);
    const nul = row({
      model: 'mock\u0000-1',
      error: 'bad\u0000',
      provider: '\u0000mock',
      app: 'a\u0000',
    });
    writer.add(nul);
    await writer.settled();
    expect(await stored(nul.id)).toMatchObject({
      model: 'mock-1',
      error: 'bad',
      provider: 'mock',
      app: 'a',
    });
    await writer.close();
  });

  it('writes a failed batch one row at a time, and logs in full and drops only the rows refused alone', async () => {
    const writer = new RequestLog(db(), log);
    const first = row();
    writer.add(first);
    await writer.settled();
    logged.length = 0;
    const [a, duplicate, overflow, b] = [
      row(),
      row({ id: first.id, model: 'dup' }),
      row({ input_tokens: 2 ** 40 }),
      row(),
    ];
    for (const r of [a, duplicate, overflow, b]) writer.add(r);
    await writer.settled();
    expect(await stored(a.id)).toBeDefined();
    expect(await stored(b.id)).toBeDefined();
    expect(await stored(overflow.id)).toBeUndefined();
    expect((await stored(first.id))!.model).toBe('mock-1');
    expect(logged.map((l) => l.msg)).toEqual([
      'inference: the database refused a request log row; dropped (the row follows)',
      'inference: the database refused a request log row; dropped (the row follows)',
    ]);
    expect(logged.map((l) => (l.obj as { row: NewRequest }).row)).toEqual([duplicate, overflow]);
    // Nothing is left queued: a later row is written at once.
    const later = row();
    writer.add(later);
    await writer.settled();
    expect(await stored(later.id)).toBeDefined();
    await writer.close();
    expect(logged).toHaveLength(2);
  });
});
