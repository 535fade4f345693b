/* eslint-disable @typescript-eslint/no-explicit-any -- this code runs inside the isolate, untyped */
// Headers, Request and Response for the isolate (see polyfill.ts): bodies are bytes in memory, a
// `body` is a small ReadableStream over them. Like installWebApis, `installFetchApi` is turned into
// source text and may use nothing from this module's scope.

export function installFetchApi(
  g: any,
  {
    utf8Encode,
    utf8Decode,
    toBytes,
  }: {
    utf8Encode: (s: string) => Uint8Array;
    utf8Decode: (b: Uint8Array) => string;
    toBytes: (b: any) => Uint8Array;
  },
) {
  const define = (name: string, value: unknown) =>
    Object.defineProperty(g, name, { value, writable: true, configurable: true });
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

  class Headers {
    #map = new Map<string, string[]>();
    constructor(init?: any) {
      if (init instanceof Headers) init.forEach((v: string, k: string) => this.append(k, v));
      else if (init && typeof init[Symbol.iterator] === 'function')
        for (const pair of init) this.append(pair[0], pair[1]);
      else if (init && typeof init === 'object')
        for (const k of Object.keys(init)) this.append(k, init[k]);
    }
    #name(name: string) {
      const n = String(name).toLowerCase();
      if (!TOKEN.test(n)) throw new TypeError(`Invalid header name: ${name}`);
      return n;
    }
    append(name: string, value: string) {
      const n = this.#name(name);
      const v = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
      // A ByteString (no character over 0xFF) without NUL, CR or LF, as the Fetch standard says.
      if (/[\r\n\0]|[^\0-\xff]/.test(v)) throw new TypeError(`Invalid header value for ${name}`);
      const list = this.#map.get(n);
      if (list) list.push(v);
      else this.#map.set(n, [v]);
    }
    set(name: string, value: string) {
      this.#map.delete(this.#name(name));
      this.append(name, value);
    }
    delete(name: string) {
      this.#map.delete(this.#name(name));
    }
    get(name: string) {
      const list = this.#map.get(this.#name(name));
      return list ? list.join(', ') : null;
    }
    getSetCookie() {
      return [...(this.#map.get('set-cookie') ?? [])];
    }
    has(name: string) {
      return this.#map.has(this.#name(name));
    }
    forEach(fn: (v: string, k: string, h: Headers) => void, self?: unknown) {
      for (const [k, v] of this.entries()) fn.call(self, v, k, this);
    }
    *entries(): IterableIterator<[string, string]> {
      for (const k of [...this.#map.keys()].sort()) {
        const list = this.#map.get(k)!;
        if (k === 'set-cookie') for (const v of list) yield [k, v];
        else yield [k, list.join(', ')];
      }
    }
    *keys() {
      for (const [k] of this.entries()) yield k;
    }
    *values() {
      for (const [, v] of this.entries()) yield v;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
  }

  const streamBytes = new WeakMap<object, () => Uint8Array>();
  class ReadableStream {
    #chunks: Uint8Array[] = [];
    #locked = false;
    constructor(source?: any) {
      if (source?.start)
        source.start({
          enqueue: (chunk: any) =>
            this.#chunks.push(typeof chunk === 'string' ? utf8Encode(chunk) : toBytes(chunk)),
          close: () => undefined,
          error: (e: unknown) => {
            throw e;
          },
        });
      streamBytes.set(this, () => {
        const size = this.#chunks.reduce((n, c) => n + c.length, 0);
        const out = new Uint8Array(size);
        let at = 0;
        for (const c of this.#chunks) {
          out.set(c, at);
          at += c.length;
        }
        return out;
      });
    }
    get locked() {
      return this.#locked;
    }
    getReader() {
      this.#locked = true;
      const chunks = this.#chunks;
      return {
        read: async () =>
          chunks.length ? { value: chunks.shift(), done: false } : { value: undefined, done: true },
        releaseLock: () => undefined,
        cancel: async () => void chunks.splice(0),
        closed: Promise.resolve(),
      };
    }
  }

  /** Body bytes and the content type the body implies. */
  function extract(body: any): [Uint8Array | null, string | null] {
    if (body === null || body === undefined) return [null, null];
    if (typeof body === 'string') return [utf8Encode(body), 'text/plain;charset=UTF-8'];
    if (body instanceof URLSearchParamsOf())
      return [utf8Encode(body.toString()), 'application/x-www-form-urlencoded;charset=UTF-8'];
    if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return [toBytes(body), null];
    const bytes = streamBytes.get(body);
    if (bytes) return [bytes(), null];
    return [utf8Encode(String(body)), 'text/plain;charset=UTF-8'];
  }
  const URLSearchParamsOf = () => g.URLSearchParams;

  class Body {
    #bytes: Uint8Array | null = null;
    #used = false;
    headers: Headers = new Headers();
    _init(body: any, headers: any) {
      const [bytes, type] = extract(body);
      this.#bytes = bytes;
      this.headers = new Headers(headers);
      if (type && !this.headers.has('content-type')) this.headers.set('content-type', type);
    }
    _bytes() {
      return this.#bytes;
    }
    get bodyUsed() {
      return this.#used;
    }
    get body() {
      if (this.#bytes === null) return null;
      const bytes = this.#bytes;
      return new ReadableStream({ start: (c: any) => bytes.length && c.enqueue(bytes) });
    }
    async #take() {
      if (this.#used) throw new TypeError('Body has already been consumed');
      this.#used = true;
      return this.#bytes ?? new Uint8Array(0);
    }
    async arrayBuffer() {
      const b = await this.#take();
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    }
    async bytes() {
      return new Uint8Array(await this.arrayBuffer());
    }
    async text() {
      return utf8Decode(await this.#take());
    }
    async json() {
      return JSON.parse(await this.text());
    }
    async formData(): Promise<never> {
      throw new TypeError('formData() is not available in app backends: parse the text instead');
    }
    async blob(): Promise<never> {
      throw new TypeError('blob() is not available in app backends: use arrayBuffer()');
    }
  }

  const METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'];
  class Request extends Body {
    url: string;
    method: string;
    redirect = 'follow';
    signal = { aborted: false, addEventListener: () => undefined, removeEventListener: () => undefined }; // prettier-ignore
    constructor(input: any, init: any = {}) {
      super();
      const from = input instanceof Request ? input : null;
      this.url = new g.URL(from ? from.url : String(input)).href;
      const method = String(init.method ?? from?.method ?? 'GET');
      this.method = METHODS.includes(method.toUpperCase()) ? method.toUpperCase() : method;
      const body = init.body !== undefined ? init.body : from ? from._bytes() : null;
      if (body !== null && body !== undefined && (this.method === 'GET' || this.method === 'HEAD'))
        throw new TypeError('Request with GET/HEAD method cannot have body');
      this._init(body, init.headers ?? from?.headers);
    }
    clone() {
      return new Request(this);
    }
  }

  class Response extends Body {
    status: number;
    statusText: string;
    type = 'default';
    url = '';
    redirected = false;
    constructor(body: any = null, init: any = {}) {
      super();
      this.status = init.status === undefined ? 200 : Number(init.status);
      if (!Number.isInteger(this.status) || this.status < 200 || this.status > 599)
        throw new RangeError(`Response status must be 200-599, got ${init.status}`);
      this.statusText = String(init.statusText ?? '');
      this._init(body, init.headers);
    }
    get ok() {
      return this.status >= 200 && this.status < 300;
    }
    clone() {
      return new Response(this._bytes(), this);
    }
    static json(data: unknown, init: any = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      return new Response(JSON.stringify(data), { ...init, headers });
    }
    static redirect(url: string, status = 302) {
      return new Response(null, { status, headers: { location: new g.URL(url).href } });
    }
    static error(): never {
      throw new TypeError('Response.error() is not available in app backends');
    }
  }

  define('Headers', Headers);
  define('ReadableStream', ReadableStream);
  define('Request', Request);
  define('Response', Response);
}
