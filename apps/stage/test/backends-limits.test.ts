import { sleep, useService } from '@platform/testing';
import { callFailure } from '../src/domain/backends/host';
import { backendsUnderTest, push, type Backends } from './backends-helpers';

// Limits of the runtime: the CPU budget, background work, wall time, host-side work, platform
// calls, the kv quota, and the hard cap on isolates (2 here).
const b = useService(
  () =>
    backendsUnderTest({
      STAGE_BACKEND_TIMEOUT_MS: '100',
      STAGE_BACKEND_WALL_MS: '3000',
      STAGE_BACKEND_MEMORY_MB: '32',
      STAGE_BACKEND_MAX_ISOLATES: '2',
      STAGE_BACKEND_KV_MAX_KEYS: '3',
      STAGE_BACKEND_KV_MAX_BYTES: '200',
    }),
  { scope: 'all' },
);

const APP = `
import { kv } from '@stage/compute';
import { sha256 } from '@stage/utils';
let count = 0;
const caught = (p) => p.then((v) => ({ ok: v }), (e) => ({ code: e.code, message: e.message }));
export default {
  async fetch(request) {
    count += 1;
    const url = new URL(request.url);
    const path = url.pathname;
    const q = url.searchParams.get('q');
    if (path === '/count') return new Response(String(count));
    if (path === '/never') return new Promise(() => {});
    if (path === '/burn') for (;;) { const t = Date.now(); while (Date.now() - t < 4); await kv.get('x'); }
    if (path === '/bg') (async () => { try { await kv.get('x'); } catch {} for (;;); })();
    if (path === '/late') (async () => { await kv.get('x'); await kv.set('late', 'stored').catch(() => undefined); })();
    if (path === '/get') return new Response(JSON.stringify(await kv.get(q)));
    if (path === '/set') return new Response(JSON.stringify(await caught(kv.set(q, 'x'.repeat(Number(url.searchParams.get('n')))))));
    if (path === '/globals') return new Response([typeof WebAssembly, typeof SharedArrayBuffer, typeof Atomics].join());
    if (path === '/hash') { try { return new Response(sha256('x'.repeat(2 << 20))); } catch (e) { return new Response(e.name + ': ' + e.message); } }
    if (path === '/flood') {
      const all = await Promise.all(Array.from({ length: 1100 }, (_, i) => caught(kv.get('k' + i))));
      return new Response(JSON.stringify(all.filter((r) => r.code).map((r) => r.code + ' ' + r.message).slice(0, 1).concat(all.filter((r) => r.code).length)));
    }
    if (path === '/wide') return new Response(JSON.stringify(await caught(kv.get('k'.repeat(2 << 20)))));
    return new Response('ok');
  },
};`;

const failure = (res: Awaited<ReturnType<Backends['call']>>) => [
  res.status,
  res.headers['x-stage-backend-error'],
  res.json().error.message,
];

describe('the CPU budget and background work', () => {
  it('counts CPU across awaits: small slices add up to STAGE_BACKEND_TIMEOUT_MS', async () => {
    const { sid } = await b.publish({ '/app/api/index.js': APP });
    const started = Date.now();
    const [status, kind, message] = failure(await b.call(sid, '/burn'));
    expect([status, kind]).toEqual([504, 'timeout']);
    expect(message).toContain('CPU time limit of 100 ms (STAGE_BACKEND_TIMEOUT_MS)');
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('disposes an isolate that keeps running after its answer, and refuses its late calls', async () => {
    const { sid } = await b.publish({ '/app/api/index.js': APP });
    expect((await b.call(sid, '/bg')).body).toBe('ok');
    await sleep(300);
    // A fresh isolate (count 1), answering at once: the looping one is gone.
    expect((await b.call(sid, '/count')).body).toBe('1');
    expect((await b.call(sid, '/late')).body).toBe('ok');
    await sleep(300);
    expect((await b.call(sid, '/get?q=late')).body).toBe('null');
  });

  it('disposes the isolate of a request over the wall-clock limit', async () => {
    const { sid } = await b.publish({ '/app/api/index.js': APP });
    const [status, kind, message] = failure(await b.call(sid, '/never'));
    expect([status, kind]).toEqual([504, 'timeout']);
    expect(message).toContain('did not answer within 3000 ms');
    expect((await b.call(sid, '/count')).body).toBe('1');
  });

  it('has no WebAssembly, SharedArrayBuffer nor Atomics, and bounds the input of sha256', async () => {
    const { sid } = await b.publish({ '/app/api/index.js': APP });
    expect((await b.call(sid, '/globals')).body).toBe('undefined,undefined,undefined');
    expect((await b.call(sid, '/hash')).body).toBe(
      'RangeError: sha256: the input is 2097152 bytes, over 1048576',
    );
  });
});

describe('platform calls', () => {
  it('runs 16 at once, queues 1000 more, refuses the rest and oversized arguments', async () => {
    // 1,100 calls take more than 100 ms of CPU on a loaded machine: this one has room to spare.
    const roomy = await backendsUnderTest({ STAGE_BACKEND_TIMEOUT_MS: '5000', STAGE_BACKEND_WALL_MS: '30000' }); // prettier-ignore
    const { sid } = await roomy.publish({ '/app/api/index.js': APP });
    const flood = await roomy.call(sid, '/flood');
    const wide = (await roomy.call(sid, '/wide')).json();
    await roomy.s.svc.close();
    expect([flood.status, flood.body.slice(0, 300)]).toEqual([200, expect.any(String)]);
    const [first, refused] = flood.json();
    expect(first).toBe('RATE_LIMITED kv.get: too many platform calls at once (16 under way and 1000 waiting)'); // prettier-ignore
    // Some may have finished before the last were made: at most 1100 - 16 - 1000 refused.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThanOrEqual(1100 - 16 - 1000);
    expect(wide.code).toBe('PAYLOAD_TOO_LARGE');
    expect(wide.message).toMatch(/^kv\.get: its arguments are \d+ bytes of JSON, over 1048576$/);
  });

  it('keeps each app within its kv quota of keys and bytes', async () => {
    const { sid } = await b.publish({ '/app/api/index.js': APP });
    const set = async (key: string, n: number) => (await b.call(sid, `/set?q=${key}&n=${n}`)).json(); // prettier-ignore
    expect(await set('a', 100)).toEqual({ ok: null });
    const bytes = await set('b', 100);
    expect(bytes.code).toBe('PAYLOAD_TOO_LARGE');
    expect(bytes.message).toContain('204 bytes, over 200 (STAGE_BACKEND_KV_MAX_BYTES)');
    expect(await set('a', 150)).toEqual({ ok: null });
    expect(await set('b', 1)).toEqual({ ok: null });
    expect(await set('c', 1)).toEqual({ ok: null });
    const keys = await set('d', 1);
    expect(keys.message).toContain(
      'already keeps 3 keys, the most it may (STAGE_BACKEND_KV_MAX_KEYS)',
    );
  });

  it('logs a host failure before telling the app only that it failed', () => {
    const log = { error: jest.fn() };
    const boom = new Error('connection refused');
    expect(callFailure(boom, log)).toEqual({ code: 'INTERNAL_ERROR', message: 'The platform call failed' }); // prettier-ignore
    expect(log.error).toHaveBeenCalledWith({ err: boom }, expect.stringContaining('platform call'));
  });
});

describe('warm isolates (at most 2)', () => {
  it('boots one isolate for concurrent first requests, and drops the least recently used', async () => {
    const [x, y, z] = await Promise.all([1, 2, 3].map(() => b.publish({ '/app/api/index.js': APP }))); // prettier-ignore
    const counts = await Promise.all([1, 2, 3, 4, 5].map(() => b.call(x.sid, '/count')));
    expect(counts.map((r) => r.body).sort()).toEqual(['1', '2', '3', '4', '5']);
    const count = async (sid: string) => (await b.call(sid, '/count')).body;
    expect(await count(y.sid)).toBe('1');
    expect(await count(x.sid)).toBe('6');
    expect(await count(z.sid)).toBe('1'); // y goes
    expect(await count(y.sid)).toBe('1'); // x goes
    expect(await count(z.sid)).toBe('2');
    expect(await count(x.sid)).toBe('1');
  });

  it('bounds old versions still running: the oldest fails (503) for the newest', async () => {
    const v = (n: number) => ({ '/app/api/index.js': `// v${n}\n${APP}` });
    const { sid, session } = await b.publish(v(1));
    const started = Date.now();
    const first = b.call(sid, '/never');
    await sleep(200);
    await push(b, session, v(2));
    const second = b.call(sid, '/never');
    await sleep(200);
    await push(b, session, v(3));
    expect((await b.call(sid, '/count')).body).toBe('1');
    const [status, kind, message] = failure(await first);
    expect([status, kind]).toEqual([503, 'recycled']);
    expect(message).toContain('a newer version replaced it');
    expect(Date.now() - started).toBeLessThan(2500);
    expect(failure(await second).slice(0, 2)).toEqual([504, 'timeout']);
  });
});
