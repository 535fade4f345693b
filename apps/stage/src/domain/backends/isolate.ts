import { randomUUID } from 'node:crypto';
import ivm from 'isolated-vm';
import { installBridge } from './bridge.js';
import { argumentBytes, CallQueue, refused } from './calls.js';
import { installFetchApi } from './fetch-api.js';
import { installConsole, installFetch } from './globals.js';
import { installWebApis } from './polyfill.js';
import { headersProblem } from './headers.js';
import { installUrlApi } from './url-api.js';
import type { BackendEnv, Failure, RuntimeLimits, WireRequest, WireResponse } from './protocol.js';

/** How the runtime answers an isolate's virtual-module calls (child.ts). */
export interface HostCalls {
  call(request: number | null, op: string, args: unknown[]): Promise<HostResult>;
  sync(op: unknown, arg: unknown): unknown;
}
export type HostResult =
  { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** CPU an isolate may use with no request under way (what is left of the last one), in ms. */
const IDLE_CPU_MS = 10;

export type Outcome = { ok: true; response: WireResponse } | { ok: false; failure: Failure };

/**
 * Run once per isolate before the app: away with what escapes the isolate's limits (WebAssembly
 * memory is not counted in its heap; SharedArrayBuffer and Atomics.wait block its thread without
 * using CPU), then the Web APIs, the bridge (bridge.ts), console and fetch (globals.ts).
 */
const prelude = (maxResponseBytes: number) => `(function () {
  const g = globalThis, host = g.__host, hostSync = g.__hostSync;
  delete g.__host; delete g.__hostSync;
  delete g.WebAssembly; delete g.SharedArrayBuffer; delete g.Atomics;
  const helpers = (${installWebApis.toString()})(g, (n) => hostSync('random', n));
  (${installUrlApi.toString()})(g);
  (${installFetchApi.toString()})(g, helpers);
  const bridge = (${installBridge.toString()})(g, host, hostSync, ${maxResponseBytes});
  (${installConsole.toString()})(g, hostSync, bridge.current);
  (${installFetch.toString()})(g);
})();`;
let preludeCache: { source: string; data?: ivm.ExternalCopy<ArrayBuffer> } | undefined;

const isStringPair = (h: unknown) =>
  Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string';

/** A request under way in an isolate: the fetch it is, and the CPU charged to it so far. */
interface InFlight {
  id: number;
  cpuMs: number;
  abort(failure: Failure): void;
}

/** One app's backend at one version of its files: an isolate with the app loaded. */
export class Backend {
  private inflight = new Map<string, InFlight>();
  private handle!: ivm.Reference;
  /** Set when the isolate is killed: what the requests under way are told. */
  private killed: Failure | null = null;
  private lastCpu = 0n;
  /** Time spent in the runtime's synchronous helpers (sha256...), in ns: CPU of the isolate too. */
  private hostNs = 0n;
  private idleMs = 0;
  private calls = new CallQueue();
  /** Requests handed this backend that have not started yet (child.ts): not to be evicted. */
  pins = 0;
  readonly isolate: ivm.Isolate;

  private constructor(
    readonly sid: string,
    readonly hash: string,
    private readonly limits: RuntimeLimits,
  ) {
    this.isolate = new ivm.Isolate({
      memoryLimit: limits.memoryMb,
      // V8 lost control of the isolate: nothing in this process can be trusted any more.
      onCatastrophicError: (message) => {
        process.stderr.write(`stage backend runtime: catastrophic isolate error: ${message}\n`);
        process.exit(70);
      },
    });
  }

  /** Boots `code` (the bundle) in a new isolate; a failure names why (the isolate is gone then). */
  static async boot(
    sid: string,
    hash: string,
    code: string,
    limits: RuntimeLimits,
    host: HostCalls,
  ): Promise<Backend | Failure> {
    const backend = new Backend(sid, hash, limits);
    const { isolate } = backend;
    try {
      const context = await isolate.createContext();
      await context.global.set('__host', new ivm.Reference(backend.hostCall.bind(backend, host)));
      const sync = (op: unknown, arg: unknown) => {
        const started = process.hrtime.bigint();
        try {
          return host.sync(op, arg);
        } finally {
          backend.hostNs += process.hrtime.bigint() - started;
        }
      };
      await context.global.set('__hostSync', new ivm.Callback(sync));
      const source = prelude(limits.maxResponseBytes);
      if (preludeCache?.source !== source) preludeCache = { source };
      const script = await isolate.compileScript(source, {
        filename: 'stage:prelude.js',
        ...(preludeCache.data ? { cachedData: preludeCache.data } : { produceCachedData: true }),
      });
      const produced = (script as ivm.Script & ivm.CachedDataResult).cachedData;
      if (!preludeCache.data && produced) preludeCache.data = produced;
      await script.run(context, { timeout: 1000 });
      const app = await isolate.compileScript(
        `${code}\n;__stage_activate(typeof __stage_backend === 'undefined' ? undefined : __stage_backend);`,
        { filename: 'backend.js' },
      );
      await app.run(context, { timeout: Math.max(limits.timeoutMs, 500) });
      backend.handle = await context.global.get('__stage_handle', { reference: true });
      backend.lastCpu = backend.cpuNs();
      return backend;
    } catch (error) {
      const failure = backend.classify(error);
      backend.dispose();
      if (failure.kind !== 'bad-response') return failure;
      const name = error instanceof Error ? error.name : 'Error';
      const text = error instanceof Error ? error.message : String(error);
      return { kind: 'boot', message: `it failed to start: ${name}: ${text}` };
    }
  }

  /**
   * A virtual-module call of the isolate: only while a request is under way (kv acts for the
   * app, the others for the request whose token the bridge passes), arguments of bounded size,
   * at most MAX_CALLS_IN_FLIGHT at once (calls.ts).
   */
  private hostCall(host: HostCalls, token: unknown, op: unknown, args: unknown) {
    if (typeof op !== 'string' || !Array.isArray(args))
      return refused('BAD_REQUEST', 'Malformed platform call');
    const size = argumentBytes(args);
    if (size === null) return refused('BAD_REQUEST', `${op}: its arguments are not JSON`);
    if (size > this.limits.maxCallBytes)
      return refused('PAYLOAD_TOO_LARGE', `${op}: its arguments are ${size} bytes of JSON, over ${this.limits.maxCallBytes}`); // prettier-ignore
    const check = () => {
      if (token === null) return this.inflight.size > 0 ? null : -1;
      return (typeof token === 'string' && this.inflight.get(token)?.id) || -1;
    };
    const ended = () =>
      refused('BAD_REQUEST', `${op}: the request it acts for has ended (no background work: answer first, or await it)`); // prettier-ignore
    if (check() === -1) return ended();
    return this.calls.run(op, () => {
      const request = check();
      return request === -1 || this.dead ? Promise.resolve(ended()) : host.call(request, op, args);
    });
  }

  get busy() {
    return this.inflight.size > 0 || this.pins > 0;
  }

  get dead() {
    return this.isolate.isDisposed;
  }

  dispose() {
    this.calls.clear();
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }

  /** Kills the isolate: every request under way on it fails with `failure`. */
  kill(failure: Failure) {
    this.killed ??= failure;
    this.dispose();
    for (const request of [...this.inflight.values()]) request.abort(this.killed);
  }

  private cpuNs() {
    return this.isolate.cpuTime + this.hostNs;
  }

  /**
   * Called every `tickMs` for every isolate (child.ts): the CPU it used since is charged to its
   * requests under way, shared equally; one over its budget (STAGE_BACKEND_TIMEOUT_MS in all)
   * kills the isolate. An isolate using CPU with no request under way (background work after
   * an answer) is disposed.
   */
  watch() {
    if (this.dead) return;
    const cpu = this.cpuNs();
    const used = Number(cpu - this.lastCpu) / 1e6;
    this.lastCpu = cpu;
    if (this.inflight.size === 0) {
      this.idleMs += used;
      if (this.idleMs > IDLE_CPU_MS) this.kill({ kind: 'recycled', message: 'it kept running after its answer' }); // prettier-ignore
      return;
    }
    const share = used / this.inflight.size;
    for (const request of this.inflight.values()) request.cpuMs += share;
    for (const request of this.inflight.values())
      if (request.cpuMs > this.limits.timeoutMs)
        return this.kill({ kind: 'timeout', message: this.timeoutMessage() });
  }

  private timeoutMessage() {
    return `it ran over its CPU time limit of ${this.limits.timeoutMs} ms (STAGE_BACKEND_TIMEOUT_MS)`;
  }

  private classify(error: unknown): Failure {
    if (this.killed) return this.killed;
    const message = error instanceof Error ? error.message : String(error);
    if (/memory limit/i.test(message))
      return { kind: 'memory', message: `it ran out of memory (limit ${this.limits.memoryMb} MB, STAGE_BACKEND_MEMORY_MB)` }; // prettier-ignore
    if (/timed out/i.test(message)) return { kind: 'timeout', message: this.timeoutMessage() };
    if (this.isolate.isDisposed)
      return { kind: 'recycled', message: 'it was restarted while this request ran' };
    return { kind: 'bad-response', message: `its answer could not be read (${message})` };
  }

  async fetch(id: number, request: WireRequest, env: BackendEnv): Promise<Outcome> {
    if (this.inflight.size === 0 && !this.dead) {
      // This request is charged from now. What ran since the last tick, the previous answer's
      // tail (a busy machine stretches it past IDLE_CPU_MS), is neither its nor a reason to
      // recycle the isolate under it: that failed a request that had not started (seen in CI).
      this.lastCpu = this.cpuNs();
      this.idleMs = 0;
    }
    if (this.dead) return { ok: false, failure: this.killed ?? this.classify(null) };
    const token = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const stop = new Promise<Failure>((resolve) => {
      this.inflight.set(token, { id, cpuMs: 0, abort: resolve });
      timer = setTimeout(
        () => resolve({ kind: 'timeout', message: `it did not answer within ${this.limits.wallMs} ms (STAGE_BACKEND_WALL_MS)` }), // prettier-ignore
        this.limits.wallMs,
      );
    });
    try {
      const applied = this.handle.apply(undefined, [request, env, token, id], {
        arguments: { copy: true },
        result: { promise: true, copy: true },
        timeout: this.limits.timeoutMs,
      });
      // Stopped first, it may still reject (the isolate disposed): nobody waits for it then.
      applied.catch(() => undefined);
      const result = await Promise.race([applied, stop.then((failure) => ({ stopped: failure }))]);
      const stopped = (result as { stopped?: Failure } | null)?.stopped;
      if (stopped) {
        // Never answered in time (or killed meanwhile): the isolate is not reused.
        this.kill(stopped);
        return { ok: false, failure: this.killed ?? stopped };
      }
      return this.read(result);
    } catch (error) {
      const failure = this.classify(error);
      // A timed-out or failed bridge may have left the isolate half-way: never reused.
      this.kill(failure);
      return { ok: false, failure };
    } finally {
      clearTimeout(timer);
      this.inflight.delete(token);
    }
  }

  /** Checks what the bridge answered; a malformed answer means a damaged isolate: recycled. */
  private read(result: unknown): Outcome {
    const r = result as Record<string, unknown> | null;
    if (r && typeof r.failure === 'string' && typeof r.message === 'string') {
      const known = ['threw', 'bad-export', 'bad-response', 'too-large'];
      const failure = {
        kind: (known.includes(r.failure) ? r.failure : 'bad-response') as Failure['kind'],
        message: r.message.slice(0, 2000),
      };
      // Whatever failed may have been damage the app did to itself (a polluted prototype): the
      // next request gets a fresh isolate. Only a good answer keeps one warm.
      this.kill(failure);
      return { ok: false, failure };
    }
    const { status, headers, body } = r ?? {};
    if (
      typeof status !== 'number' ||
      !Number.isInteger(status) ||
      status < 200 ||
      status > 599 ||
      !Array.isArray(headers) ||
      !headers.every(isStringPair) ||
      !(body instanceof ArrayBuffer) ||
      body.byteLength > this.limits.maxResponseBytes
    ) {
      const failure: Failure = { kind: 'bad-response', message: 'its answer was malformed' };
      this.kill(failure);
      return { ok: false, failure };
    }
    const problem = headersProblem(headers as Array<[string, string]>);
    if (problem) return { ok: false, failure: { kind: 'bad-response', message: problem } };
    return {
      ok: true,
      response: { status, headers: headers as Array<[string, string]>, body: new Uint8Array(body) },
    };
  }
}
