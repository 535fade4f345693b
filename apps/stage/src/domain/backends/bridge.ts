/* eslint-disable @typescript-eslint/no-explicit-any -- this code runs inside the isolate, untyped */
// The isolate's side of a request, and the virtual modules. `installBridge` is turned into source
// text (toString) and run after the Web APIs and before the app: it keeps the host references in
// its closure (deleted from the global), and captures the classes it relies on, so that an app
// replacing globals or polluting prototypes harms only itself; what it answers is checked again
// by the runtime, which recycles the isolate when it is not a well-formed response.

export function installBridge(g: any, host: any, hostSync: any, maxResponseBytes: number) {
  const { Request, Response, Headers } = g;
  const { defineProperty, freeze } = Object;
  const isArray = Array.isArray;
  const apply: (f: any, self: any, args: any[]) => any = Reflect.apply;
  const entries = Headers.prototype.entries;
  const ArrayBufferOf = ArrayBuffer;
  const StringOf = String;
  // The bridge's own copies, taken before the app runs: replacing WeakMap.prototype.get/set or
  // the host reference's apply later cannot make it reveal or accept a request's token.
  const tokens = new WeakMap<object, string>();
  const tokenOf = WeakMap.prototype.get;
  const tokenSet = WeakMap.prototype.set;
  const hostApply = host.apply;
  let backend: any = null;
  /** The request whose handler runs synchronously now, if any: its console lines are its own. */
  let current: number | null = null;
  const fixed = (name: string, value: unknown) =>
    defineProperty(g, name, { value, writable: false, configurable: false, enumerable: false });

  const describe = (value: unknown): string => {
    try {
      if (value instanceof Error) return `${value.name}: ${value.message}`;
      if (value === null || value === undefined) return String(value);
      if (typeof value === 'object') return `an object (${JSON.stringify(value)?.slice(0, 80)})`;
      return `${typeof value} ${String(value).slice(0, 80)}`;
    } catch {
      return 'a value that cannot be described';
    }
  };

  class StageError extends Error {
    code: string;
    constructor(code: string, message: string) {
      super(message);
      this.name = 'StageError';
      this.code = code;
    }
  }

  /** A virtual-module call: to the runtime, as copies; `env` names the request it acts for. */
  async function call(env: any, op: string, args: unknown[]) {
    let token: string | null = null;
    if (env !== null) {
      token = (env && typeof env === 'object' && apply(tokenOf, tokens, [env])) || null;
      if (token === null)
        throw new TypeError(
          `${op} acts for the caller: pass the env your fetch handler received (e.g. c.env in Hono)`,
        );
    }
    // Options without a prototype: a polluted Object.prototype does not change them.
    const options = { __proto__: null, arguments: { __proto__: null, copy: true }, result: { __proto__: null, promise: true, copy: true } }; // prettier-ignore
    const out = await apply(hostApply, host, [undefined, [token, op, args], options]);
    if (!out || out.ok !== true) throw new StageError(out?.code ?? 'INTERNAL_ERROR', StringOf(out?.message)); // prettier-ignore
    return out.value;
  }
  const callSync = (op: string, arg: unknown) => hostSync(op, arg);

  fixed('__stage_call', call);
  fixed('__stage_call_sync', callSync);
  fixed('__stage_activate', (mod: any) => {
    backend = mod && typeof mod === 'object' && 'default' in mod ? mod.default : mod;
  });
  fixed('__stage_handle', async (wire: any, envData: any, token: string, id: number) => {
    if (!backend || typeof backend.fetch !== 'function')
      return { failure: 'bad-export', message: `its default export is ${describe(backend)}` };
    // The app's secrets as env.<NAME> (upper case: never auth or app, which come last anyway).
    const env = freeze({ ...envData.secrets, auth: freeze(envData.auth), app: freeze(envData.app) }); // prettier-ignore
    apply(tokenSet, tokens, [env, token]);
    const request = new Request(wire.url, {
      method: wire.method,
      headers: wire.headers,
      body: wire.body ?? undefined,
    });
    const ctx = freeze({ waitUntil: () => undefined, passThroughOnException: () => undefined });
    let res: any;
    try {
      current = id;
      let pending: any;
      try {
        pending = backend.fetch(request, env, ctx);
      } finally {
        current = null;
      }
      res = await pending;
    } catch (error) {
      return { failure: 'threw', message: describe(error) };
    }
    if (!(res instanceof Response))
        return { failure: 'bad-response', message: `fetch returned ${describe(res)}, not a Response` }; // prettier-ignore
    let body: ArrayBuffer;
    try {
      body = await res.arrayBuffer();
    } catch (error) {
      return { failure: 'threw', message: `reading its response body: ${describe(error)}` };
    }
    if (!(body instanceof ArrayBufferOf))
      return { failure: 'bad-response', message: `its body is ${describe(body)}` };
    if (body.byteLength > maxResponseBytes)
      return { failure: 'too-large', message: `its response body is ${body.byteLength} bytes` };
    const headers: Array<[string, string]> = [];
    for (const pair of apply(entries, res.headers, []) as Iterable<any>) {
      if (!isArray(pair)) break;
      defineProperty(headers, headers.length, { value: [pair[0], pair[1]], enumerable: true, writable: true, configurable: true }); // prettier-ignore
    }
    return { status: res.status, headers, body };
  });
  return { current: () => current };
}

/** The virtual modules an app imports, by name: ES modules calling the bridge. */
export const VIRTUAL_MODULES: Record<string, string> = {
  '@stage/utils': `
const withType = (type, init = {}) => {
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', type);
  return { ...init, headers };
};
export const json = (data, init) =>
  new Response(JSON.stringify(data), withType('application/json; charset=utf-8', init));
export const html = (text, init) => new Response(String(text), withType('text/html; charset=utf-8', init));
export const text = (text, init) => new Response(String(text), withType('text/plain; charset=utf-8', init));
export const redirect = (location, status = 302) =>
  new Response(null, { status, headers: { location: String(location) } });
export const uuid = () => crypto.randomUUID();
export const id = (prefix) => {
  const hex = crypto.randomUUID().replace(/-/g, '');
  return prefix ? prefix + '_' + hex : hex;
};
export const sha256 = (data) =>
  __stage_call_sync('sha256', typeof data === 'string' ? data : new Uint8Array(data));
`,
  '@stage/compute': `
const call = (op, args) => __stage_call(null, op, args);
export const kv = {
  get: (key) => call('kv.get', [key]),
  set: (key, value) => call('kv.set', [key, value]),
  delete: (key) => call('kv.delete', [key]),
  list: (options = {}) => call('kv.list', [options]),
};
export const runWorkflow = (env, workflow, input = {}, options = {}) =>
  __stage_call(env, 'workflows.run', [workflow, input, options]);
`,
  '@stage/inference': `
export const chat = (env, input) => __stage_call(env, 'inference.chat', [input]);
export const embed = (env, input) => __stage_call(env, 'inference.embed', [input]);
`,
};
