/* eslint-disable @typescript-eslint/no-explicit-any -- this code runs inside the isolate, untyped */
// URL and URLSearchParams for the isolate (see polyfill.ts): absolute URLs and the relative ones a
// handler resolves against its request's URL. Like installWebApis, `installUrlApi` is turned into
// source text and may use nothing from this module's scope.

export function installUrlApi(g: any) {
  const define = (name: string, value: unknown) =>
    Object.defineProperty(g, name, { value, writable: true, configurable: true });
  const encodeForm = (s: string) =>
    encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()); // prettier-ignore
  const decodeForm = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  class URLSearchParams {
    #list: Array<[string, string]> = [];
    #onChange: (() => void) | null = null;
    constructor(init?: any) {
      if (typeof init === 'string') this._parse(init);
      else if (init && typeof init[Symbol.iterator] === 'function')
        for (const [k, v] of init) this.#list.push([String(k), String(v)]);
      else if (init && typeof init === 'object')
        for (const k of Object.keys(init)) this.#list.push([k, String(init[k])]);
    }
    _parse(text: string) {
      this.#list = [];
      for (const part of text.replace(/^\?/, '').split('&')) {
        if (!part) continue;
        const at = part.indexOf('=');
        const k = at < 0 ? part : part.slice(0, at);
        this.#list.push([decodeForm(k), at < 0 ? '' : decodeForm(part.slice(at + 1))]);
      }
    }
    _watch(fn: () => void) {
      this.#onChange = fn;
    }
    #changed() {
      this.#onChange?.();
    }
    get size() {
      return this.#list.length;
    }
    append(k: string, v: string) {
      this.#list.push([String(k), String(v)]);
      this.#changed();
    }
    delete(k: string) {
      this.#list = this.#list.filter(([x]) => x !== String(k));
      this.#changed();
    }
    get(k: string) {
      const found = this.#list.find(([x]) => x === String(k));
      return found ? found[1] : null;
    }
    getAll(k: string) {
      return this.#list.filter(([x]) => x === String(k)).map(([, v]) => v);
    }
    has(k: string) {
      return this.#list.some(([x]) => x === String(k));
    }
    set(k: string, v: string) {
      const at = this.#list.findIndex(([x]) => x === String(k));
      if (at < 0) this.#list.push([String(k), String(v)]);
      else {
        this.#list[at] = [String(k), String(v)];
        this.#list = this.#list.filter(([x], i) => i <= at || x !== String(k));
      }
      this.#changed();
    }
    sort() {
      this.#list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      this.#changed();
    }
    forEach(fn: (v: string, k: string, p: URLSearchParams) => void) {
      for (const [k, v] of this.#list) fn(v, k, this);
    }
    *entries() {
      for (const [k, v] of this.#list) yield [k, v] as [string, string];
    }
    *keys() {
      for (const [k] of this.#list) yield k;
    }
    *values() {
      for (const [, v] of this.#list) yield v;
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    toString() {
      return this.#list.map(([k, v]) => `${encodeForm(k)}=${encodeForm(v)}`).join('&');
    }
  }

  const URL_RE = /^([a-zA-Z][a-zA-Z0-9+.-]*):(?:\/\/(?:([^:@/?#]*)(?::([^@/?#]*))?@)?(\[[^\]]*\]|[^:/?#]*)(?::(\d*))?)?([^?#]*)(\?[^#]*)?(#.*)?$/; // prettier-ignore
  const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' }; // prettier-ignore
  function removeDots(path: string) {
    const out: string[] = [];
    const parts = path.split('/');
    parts.forEach((seg, i) => {
      if (seg === '..') {
        if (out.length > 1) out.pop();
        if (i === parts.length - 1) out.push('');
      } else if (seg === '.') {
        if (i === parts.length - 1) out.push('');
      } else out.push(seg);
    });
    return out.join('/') || '/';
  }
  class URL {
    protocol = '';
    username = '';
    password = '';
    hostname = '';
    port = '';
    pathname = '/';
    hash = '';
    #search = '';
    #params: URLSearchParams;
    constructor(input: any, base?: any) {
      let text = String(input).trim();
      if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text)) {
        if (base === undefined) throw new TypeError(`Invalid URL: ${text}`);
        const b = new URL(base);
        const origin = `${b.protocol}//${b.host}`;
        if (text.startsWith('//')) text = b.protocol + text;
        else if (text.startsWith('/')) text = origin + text;
        else if (text.startsWith('?')) text = origin + b.pathname + text;
        else if (text.startsWith('#')) text = origin + b.pathname + b.search + text;
        else text = origin + b.pathname.replace(/[^/]*$/, '') + text;
      }
      const m = URL_RE.exec(text);
      if (!m) throw new TypeError(`Invalid URL: ${text}`);
      this.protocol = m[1].toLowerCase() + ':';
      this.username = m[2] ?? '';
      this.password = m[3] ?? '';
      this.hostname = (m[4] ?? '').toLowerCase();
      this.port = m[5] && m[5] !== DEFAULT_PORTS[this.protocol] ? m[5] : '';
      const special = this.protocol in DEFAULT_PORTS || this.protocol === 'file:';
      this.pathname = special ? removeDots(m[6] || '/') : m[6];
      this.#search = m[7] && m[7] !== '?' ? m[7] : '';
      this.hash = m[8] && m[8] !== '#' ? m[8] : '';
      this.#params = new URLSearchParams(this.#search);
      this.#params._watch(() => {
        const s = this.#params.toString();
        this.#search = s ? '?' + s : '';
      });
    }
    get search() {
      return this.#search;
    }
    set search(value: string) {
      const s = String(value).replace(/^\?/, '');
      this.#search = s ? '?' + s : '';
      this.#params._parse(s);
    }
    get searchParams() {
      return this.#params;
    }
    get host() {
      return this.hostname + (this.port ? ':' + this.port : '');
    }
    get origin() {
      return this.protocol in DEFAULT_PORTS ? `${this.protocol}//${this.host}` : 'null';
    }
    get href() {
      const auth = this.username ? this.username + (this.password ? ':' + this.password : '') + '@' : ''; // prettier-ignore
      return `${this.protocol}//${auth}${this.host}${this.pathname}${this.#search}${this.hash}`;
    }
    toString() {
      return this.href;
    }
    toJSON() {
      return this.href;
    }
    static canParse(input: any, base?: any) {
      try {
        new URL(input, base);
        return true;
      } catch {
        return false;
      }
    }
  }

  define('URL', URL);
  define('URLSearchParams', URLSearchParams);
}
