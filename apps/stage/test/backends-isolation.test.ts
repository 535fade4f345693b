import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { eventually, sleep, useService } from '@platform/testing';
import { backendsUnderTest } from './backends-helpers';

// A memory bomb takes 150-350 ms of CPU before V8 gives up on a loaded machine: the CPU limit
// leaves it room to die of memory, not of time.
const b = useService(
  () =>
    backendsUnderTest({
      STAGE_BACKEND_TIMEOUT_MS: '1000',
      STAGE_BACKEND_WALL_MS: '2000',
      STAGE_BACKEND_MEMORY_MB: '16',
    }),
  { scope: 'all' },
);

const EVIL = `
import { kv } from '@stage/compute';
const checks = () => {
  const out = {};
  const attempt = (name, f) => { try { out[name] = String(f()); } catch (e) { out[name] = 'threw ' + e.message; } };
  attempt('process', () => typeof process);
  attempt('require', () => require(['f', 's'].join('')));
  attempt('fetch', () => typeof fetch);
  attempt('setTimeout', () => typeof setTimeout);
  attempt('ctor', () => ({}).constructor.constructor('return typeof process')());
  attempt('thisCtor', () => (function () { return this; })().constructor.constructor('return typeof process')());
  attempt('fn', () => Function('return typeof globalThis.process + typeof globalThis.__host')());
  attempt('stack', () => {
    // What each frame's this is: a host Reference has applySync; the global is the isolate's own.
    const kind = (t) => t === undefined ? 'none' : t === globalThis ? 'global' : typeof t?.applySync === 'function' || typeof t?.derefInto === 'function' ? 'REFERENCE' : typeof t; // prettier-ignore
    Error.prepareStackTrace = (e, frames) => frames.map((f) => kind(f.getThis && f.getThis())).join();
    try { null.x; } catch (e) { return e.stack; }
  });
  attempt('bridge', () => typeof __host + typeof __hostSync);
  attempt('overwrite', () => { __stage_handle = null; return typeof __stage_handle; });
  return out;
};
export default {
  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === '/loop') while (true) {}
    if (path === '/loop-after-await') { await kv.get('x'); while (true) {} }
    if (path === '/never') return new Promise(() => {});
    if (path === '/bomb') { const a = []; while (true) a.push(new Array(1e6).fill(1)); }
    if (path === '/throw') throw new Error('boom');
    if (path === '/escape') return new Response(JSON.stringify(checks()));
    if (path === '/frames') {
      // Frames seen while the bridge copies a platform call's arguments (a getter runs then).
      const seen = [];
      Error.prepareStackTrace = (e, frames) => frames.map((f) => { const t = f.getThis && f.getThis(); return typeof t?.applySync === 'function' || typeof t?.derefInto === 'function' ? 'REFERENCE' : 'ok'; }).join(); // prettier-ignore
      const arg = { get k() { seen.push(new Error().stack); return 1; } };
      try { await kv.get(arg); } catch (e) { seen.push(e.message); }
      return new Response(JSON.stringify(seen));
    }
    if (path === '/steal') {
      const stolen = [];
      const { get, set } = WeakMap.prototype;
      WeakMap.prototype.set = function (k, v) { stolen.push(v); return set.call(this, k, v); };
      WeakMap.prototype.get = function (k) { const v = get.call(this, k); stolen.push(v); return v; };
      globalThis.stolen = stolen;
      return new Response('patched');
    }
    if (path === '/stolen') {
      const seen = globalThis.stolen.filter((v) => typeof v === 'string');
      return new Response(JSON.stringify(seen));
    }
    if (path === '/pollute') {
      const answer = new Response('done');
      Object.prototype.polluted = 'yes';
      JSON.stringify = () => 'hijacked';
      Response.prototype.arrayBuffer = async () => 'not bytes';
      return answer;
    }
    if (path === '/break') {
      Array.prototype.push = () => { throw 1; };
      return new Response('broken');
    }
    return new Response('evil ok');
  },
};`;

describe('an app backend that misbehaves', () => {
  let good: string;
  let evil: string;
  beforeAll(async () => {
    good = (await b.publish({ '/app/api/index.ts': 'export default { fetch: () => new Response("fine") }' })).sid; // prettier-ignore
    evil = (await b.publish({ '/app/api/index.js': EVIL })).sid;
  });

  it('fails only its own request, with a clear envelope, while other apps keep answering', async () => {
    let stop = false;
    const answers: number[] = [];
    const healthy = (async () => {
      while (!stop) answers.push((await b.call(good, '/')).status);
    })();
    const outcome = async (path: string) => {
      const res = await b.call(evil, path);
      return [res.status, res.headers['x-stage-backend-error'], res.json().error.message];
    };
    // One after the other: requests of one app share its isolate, and a killed isolate fails
    // every request under way on it.
    const loop = await outcome('/loop');
    const after = await outcome('/loop-after-await');
    const bomb = await outcome('/bomb');
    const threw = await outcome('/throw');
    const never = await outcome('/never');
    stop = true;
    await healthy;
    expect(loop.slice(0, 2)).toEqual([504, 'timeout']);
    expect(loop[2]).toContain('CPU time limit of 1000 ms (STAGE_BACKEND_TIMEOUT_MS)');
    expect(after.slice(0, 2)).toEqual([504, 'timeout']);
    expect(after[2]).toContain('CPU time limit of 1000 ms (STAGE_BACKEND_TIMEOUT_MS)');
    expect(never.slice(0, 2)).toEqual([504, 'timeout']);
    expect(never[2]).toContain('did not answer within 2000 ms (STAGE_BACKEND_WALL_MS)');
    expect(bomb.slice(0, 2)).toEqual([502, 'memory']);
    expect(bomb[2]).toContain('ran out of memory (limit 16 MB, STAGE_BACKEND_MEMORY_MB)');
    expect(threw.slice(0, 2)).toEqual([502, 'threw']);
    expect(threw[2]).toContain('Error: boom');
    expect(answers.length).toBeGreaterThan(5);
    expect(answers.every((s) => s === 200)).toBe(true);
    // The evil app gets a fresh isolate and answers again.
    expect((await b.call(evil, '/')).body).toBe('evil ok');
    expect((await b.call(evil, '/')).body).toBe('evil ok');
  });

  it('sees no process, require, network, timers nor host objects', async () => {
    const checks = (await b.call(evil, '/escape')).json();
    expect(checks).toEqual({
      process: 'undefined',
      require: expect.stringMatching(/^threw Dynamic require of "fs" is not supported/),
      // The platform's fetch, performed by the service through its guard (backends-fetch.test.ts).
      fetch: 'function',
      setTimeout: 'undefined',
      ctor: 'undefined',
      thisCtor: 'undefined',
      fn: 'undefinedundefined',
      stack: expect.not.stringContaining('function'),
      bridge: 'undefinedundefined',
      // The bundle is sloppy-mode code: the assignment to the fixed global is silently ignored.
      overwrite: 'function',
    });
    expect(checks.stack.split(',')).not.toContain('REFERENCE');
    const frames = (await b.call(evil, '/frames')).json();
    expect(frames.join()).not.toContain('REFERENCE');
    expect(frames.length).toBeGreaterThan(0);
    // Overwriting the bridge did nothing.
    expect((await b.call(evil, '/')).body).toBe('evil ok');
  });

  it('cannot read request tokens by replacing WeakMap.prototype.get/set', async () => {
    expect((await b.call(evil, '/steal')).body).toBe('patched');
    expect((await b.call(evil, '/loop-after-await-not')).body).toBe('evil ok');
    expect((await b.call(evil, '/stolen')).json()).toEqual([]);
  });

  it('pollutes only itself, and a polluted isolate is replaced', async () => {
    const polluted = await b.call(evil, '/pollute');
    expect([polluted.status, polluted.headers['x-stage-backend-error']]).toEqual([502, 'bad-response']); // prettier-ignore
    expect(polluted.json().error.message).toContain('its body is string not bytes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
    expect((await b.call(evil, '/')).body).toBe('evil ok');
    // Broken Array.prototype.push: its own Response fails to build (a thrown 1), then it is fresh.
    const broken = await b.call(evil, '/break');
    expect([broken.status, broken.headers['x-stage-backend-error']]).toEqual([502, 'threw']);
    expect((await b.call(evil, '/')).body).toBe('evil ok');
    expect((await b.call(good, '/')).body).toBe('fine');
  });

  it('survives its runtime process dying: requests under way fail cleanly, the next ones work', async () => {
    const pending = b.call(evil, '/never');
    await sleep(100);
    const pids = execFileSync('pgrep', ['-P', String(process.pid), '-f', 'backends/child.js'])
      .toString()
      .trim()
      .split('\n');
    expect(pids).toHaveLength(1);
    process.kill(Number(pids[0]), 'SIGKILL');
    const failed = await pending;
    expect([failed.status, failed.headers['x-stage-backend-error']]).toEqual([503, 'crashed']);
    expect(failed.json().error.message).toContain('the runtime stopped while this request ran');
    expect((await b.call(good, '/')).body).toBe('fine');
    expect((await b.call(evil, '/')).body).toBe('evil ok');
    // Dying again at once: started again after a pause, meanwhile 503 with Retry-After.
    const pid = Number(execFileSync('pgrep', ['-P', String(process.pid), '-f', 'backends/child.js']).toString().trim()); // prettier-ignore
    process.kill(pid, 'SIGKILL');
    await eventually(() => !existsSync(`/proc/${pid}`), {
      timeout: 2000,
      what: 'the runtime to exit',
    });
    const paused = await b.call(good, '/');
    expect([paused.status, paused.headers['x-stage-backend-error'], paused.headers['retry-after']]).toEqual([503, 'crashed', '1']); // prettier-ignore
    expect(paused.json().error.message).toContain('the runtime keeps stopping');
    await sleep(300);
    expect((await b.call(good, '/')).body).toBe('fine');
  });
});
