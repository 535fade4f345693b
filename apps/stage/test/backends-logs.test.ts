import { get, type IncomingMessage } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { signIdentity } from '@platform/core';
import { eventually, listen, sleep, useService } from '@platform/testing';
import { ADA, backendsUnderTest, SESSION_SECRET } from './backends-helpers';

// console.* of app backends: captured per request, kept per app (bounded), listed with filters
// and a cursor, and followed live over SSE (read with a real SSE parser, eventsource-parser).
const b = useService(
  () =>
    backendsUnderTest({
      STAGE_BACKEND_LOG_KEEP: '30',
      STAGE_BACKEND_LOG_LINES_PER_REQUEST: '6',
      STAGE_BACKEND_LOG_LINE_BYTES: '64',
    }),
  { scope: 'all' },
);

const APP = `
import { kv } from '@stage/compute';
export default {
  async fetch(request) {
    const q = new URL(request.url).searchParams;
    const say = q.get('say') ?? 'hello';
    if (q.has('await')) { console.log('start ' + say); await kv.get('x'); console.log('end ' + say); }
    if (q.has('levels')) {
      console.debug('d', say); console.info('i', say); console.log('l', say); console.warn('w', say); console.error('e', say);
    }
    if (q.has('format')) console.log('%s is %d years', 'Ada', 36.5, { x: [1, 2] }, new Error('boom'));
    if (q.has('many')) for (let i = 0; i < 9; i++) console.log('line ' + i);
    if (q.has('long')) console.log('x'.repeat(200));
    if (q.has('throw')) { console.error('about to fail'); throw new Error('failed on purpose'); }
    return new Response('ok');
  },
};
`;
/** Logs when its module is loaded (as the isolate boots): the first request's line. */
const BOOTING = `console.log('booted');\n${APP}`;

/** The JSON API as a platform service (an admin of the platform) calls it. */
const api = async (method: 'GET' | 'DELETE', url: string) => {
  const identity = await signIdentity(SESSION_SECRET, { kind: 'service', name: 'tests' });
  const res = await b.s.svc.app.inject({ method, url: `/api/v1/stage${url}`, headers: { 'x-platform-identity': identity } }); // prettier-ignore
  return { status: res.statusCode, body: res.json() };
};
const logs = async (sid: string, query = '') => {
  const res = await api('GET', `/apps/${sid}/logs${query}`);
  expect(res.status).toBe(200);
  return res.body.data as Array<Record<string, any>>;
};
let listening: Promise<string> | undefined;
/** The service on a port (once): SSE is read over the network, as a browser reads it. */
const baseUrl = () => (listening ??= listen(b.s.svc.app));
const call = async (sid: string, query: string) => {
  const res = await b.call(sid, `/?${query}`);
  return { ...res, requestId: String(res.headers['x-request-id']) };
};

describe('backend logs', () => {
  it('keeps each line with its time, level, request id and source', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': BOOTING });
    const before = Date.now();
    const first = await call(sid, 'levels&say=one');
    expect(first.status).toBe(200);
    const lines = await logs(sid);
    // Newest first; what the module logged when it booted is the first request's.
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['error', 'e one'],
      ['warn', 'w one'],
      ['log', 'l one'],
      ['info', 'i one'],
      ['debug', 'd one'],
      ['log', 'booted'],
    ]);
    for (const line of lines) {
      expect(line).toMatchObject({ requestId: first.requestId, source: 'request', schedule: null });
      expect(line.time).toBeGreaterThanOrEqual(before - 1000);
      expect(line.id).toEqual(expect.any(Number));
    }
    const second = await call(sid, 'levels&say=two');
    // (Booted again when the runtime recycled the isolate meanwhile.)
    const ofSecond = await logs(sid, `?requestId=${second.requestId}`);
    expect(ofSecond.map((l) => l.message).filter((m) => m !== 'booted')).toEqual([
      'e two',
      'w two',
      'l two',
      'i two',
      'd two',
    ]);
    expect((await logs(sid, '?level=warn,error')).map((l) => l.message)).toEqual([
      'e two',
      'w two',
      'e one',
      'w one',
    ]);
    expect(await logs(sid, `?since=${Date.now() + 60_000}`)).toEqual([]);
    // Paging: the cursor is the last line's id.
    const page = await logs(sid, '?limit=4');
    const next = await logs(sid, `?limit=4&cursor=${page[3].id}`);
    expect([...page, ...next].map((l) => l.id)).toEqual((await logs(sid)).map((l) => l.id).slice(0, 8)); // prettier-ignore
    const bad = await api('GET', `/apps/${sid}/logs?level=loud`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('level');
  });

  it('formats arguments as console does, and bounds lines and their size', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': APP });
    await call(sid, 'format');
    const [formatted] = await logs(sid, '?limit=1');
    expect(formatted.message).toMatch(/^Ada is 36 years \{"x":\[1,2\]\} Error: boom/);
    expect(Buffer.byteLength(formatted.message)).toBeLessThanOrEqual(64);
    expect(formatted.message.endsWith('…')).toBe(true);
    const many = await call(sid, 'many');
    expect(
      (await logs(sid, `?requestId=${many.requestId}`)).map((l) => l.message).reverse(),
    ).toEqual([
      'line 0',
      'line 1',
      'line 2',
      'line 3',
      'line 4',
      'line 5',
      '… 3 more lines dropped (STAGE_BACKEND_LOG_LINES_PER_REQUEST is 6)',
    ]);
    // The app keeps its newest 30 lines (STAGE_BACKEND_LOG_KEEP).
    for (let i = 0; i < 5; i++) await call(sid, 'many');
    const kept = await logs(sid, '?limit=1000');
    expect(kept).toHaveLength(30);
    expect(kept[0].requestId).not.toBe(many.requestId);
  });

  it('tells concurrent requests apart while their handlers run synchronously', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': APP });
    await call(sid, 'say=warm');
    const both = await Promise.all(['a', 'b', 'c'].map((say) => call(sid, `await&say=${say}`)));
    for (const [i, say] of ['a', 'b', 'c'].entries()) {
      const own = await logs(sid, `?requestId=${both[i].requestId}`);
      expect(own.map((l) => l.message)).toContain(`start ${say}`);
      // After an await, a line is its request's only when that request ran alone by then.
      expect(own.every((l) => l.message.endsWith(say))).toBe(true);
    }
    const all = (await logs(sid)).map((l) => l.message);
    for (const say of ['a', 'b', 'c']) expect(all).toContain(`end ${say}`);
  });

  it('keeps the lines of a request that failed, and says why it failed', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': BOOTING });
    const failed = await call(sid, 'throw');
    expect(failed.status).toBe(502);
    expect(
      (await logs(sid, `?requestId=${failed.requestId}`)).map((l) => [l.level, l.message]),
    ).toEqual([
      // prettier-ignore
      ['error', 'The request failed (threw): Error: failed on purpose'],
      ['error', 'about to fail'],
      ['log', 'booted'],
    ]);
  });

  it('follows new lines live over SSE, and ends when the app is deleted', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': APP });
    await call(sid, 'say=before');
    const base = await baseUrl();
    // Ada (who visits the app) is no owner of it; the platform service that published it is.
    const denied = await fetch(`${base}/api/v1/stage/apps/${sid}/logs/stream`, {
      headers: { 'x-platform-identity': await signIdentity(SESSION_SECRET, ADA) },
    });
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.message).toMatch(/may not read stage\.log/);
    const service = { kind: 'service' as const, name: 'tests' };
    const headers = { 'x-platform-identity': await signIdentity(SESSION_SECRET, service) };
    const controller = new AbortController();
    const res = await fetch(`${base}/api/v1/stage/apps/${sid}/logs/stream?level=warn,error`, {
      headers,
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: EventSourceMessage[] = [];
    let arrived: () => void = () => undefined;
    const parser = createParser({
      onEvent: (event) => {
        events.push(event);
        arrived();
      },
    });
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        parser.feed(decoder.decode(chunk, { stream: true }));
    })();
    const until = async (test: () => boolean) => {
      while (!test()) await new Promise<void>((resolve) => (arrived = resolve));
    };
    await until(() => events.length >= 1);
    expect(events[0].event).toBe('open');
    const live = await call(sid, 'levels&say=live');
    await until(() => events.length >= 3);
    const lines = events.slice(1, 3).map((e) => ({ id: Number(e.id), ...JSON.parse(e.data) }));
    expect(lines.map((l) => [l.level, l.message, l.requestId])).toEqual([
      ['warn', 'w live', live.requestId],
      ['error', 'e live', live.requestId],
    ]);
    expect(lines[0].id).toBeLessThan(lines[1].id);
    // Nothing from before the stream opened, nothing below its level.
    expect(events.some((e) => e.data.includes('before') || e.data.includes('l live'))).toBe(false);
    expect((await api('DELETE', `/apps/${sid}`)).status).toBe(200);
    await until(() => events.some((e) => e.event === 'end'));
    expect(JSON.parse(events[events.length - 1].data)).toEqual({
      reason: `app ${sid} was deleted`,
    });
    await reading;
  });

  it('stops reading when the client of a live stream goes away', async () => {
    const { sid } = await b.publish({ '/app/api/index.ts': APP });
    const base = await baseUrl();
    const service = { kind: 'service' as const, name: 'tests' };
    const headers = { 'x-platform-identity': await signIdentity(SESSION_SECRET, service) };
    // Its own connection (node:http, no agent): going away is closing it.
    const req = get(`${base}/api/v1/stage/apps/${sid}/logs/stream`, { headers, agent: false });
    const res = await new Promise<IncomingMessage>((resolve) => req.once('response', resolve));
    const first = await new Promise<string>((resolve) =>
      res.once('data', (c) => resolve(String(c))),
    );
    expect(first).toContain('event: open');
    // While it is open, the stream looks for new lines (here every second: nothing wakes it).
    b.s.svc.queries.reset();
    await eventually(() => b.s.svc.queries.count() > 0, {
      timeout: 5000,
      what: 'the stream polling',
    });
    req.destroy();
    await sleep(200);
    b.s.svc.queries.reset();
    await sleep(2500);
    expect(b.s.svc.queries.count()).toBe(0);
  });
});
