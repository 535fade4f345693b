/* eslint-disable @typescript-eslint/no-explicit-any -- this code runs inside the isolate, untyped */
// The Web APIs a bare V8 isolate lacks and a Workers handler (Hono included) uses: Headers,
// Request, Response (bodies of bytes; fetch-api.ts), URL and URLSearchParams (url-api.ts),
// TextEncoder/TextDecoder, atob/btoa,
// crypto.getRandomValues/randomUUID, queueMicrotask and a silent console (globals.ts replaces it,
// and adds fetch). `installWebApis` is turned into source text (toString) and run in every
// isolate before the app: it may use nothing from this module's scope. There is no timer, no
// process and no file system.

export function installWebApis(g: any, randomBytes: (n: number) => Uint8Array) {
  const define = (name: string, value: unknown) =>
    Object.defineProperty(g, name, { value, writable: true, configurable: true });

  function utf8Encode(text: string): Uint8Array {
    const out: number[] = [];
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        } else c = 0xfffd;
      } else if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else
        out.push(
          0xf0 | (c >> 18),
          0x80 | ((c >> 12) & 63),
          0x80 | ((c >> 6) & 63),
          0x80 | (c & 63),
        );
    }
    return new Uint8Array(out);
  }
  function utf8Decode(bytes: Uint8Array): string {
    let out = '';
    for (let i = 0; i < bytes.length;) {
      const b = bytes[i++];
      let c = 0xfffd;
      const need = b < 0x80 ? 0 : b >= 0xf0 && b < 0xf5 ? 3 : b >= 0xe0 ? 2 : b >= 0xc2 ? 1 : -1;
      if (need === 0) c = b;
      else if (need > 0 && i + need <= bytes.length) {
        let v = b & (need === 1 ? 31 : need === 2 ? 15 : 7);
        let ok = true;
        for (let k = 0; k < need; k++) {
          const n = bytes[i + k];
          if ((n & 0xc0) !== 0x80) ok = false;
          v = (v << 6) | (n & 63);
        }
        if (ok && v <= 0x10ffff && !(v >= 0xd800 && v < 0xe000)) {
          c = v;
          i += need;
        }
      }
      out += String.fromCodePoint(c);
    }
    return out;
  }
  class TextEncoder {
    get encoding() {
      return 'utf-8';
    }
    encode(text = '') {
      return utf8Encode(String(text));
    }
  }
  class TextDecoder {
    get encoding() {
      return 'utf-8';
    }
    decode(input?: any) {
      return input === undefined ? '' : utf8Decode(toBytes(input));
    }
  }
  function toBytes(input: any): Uint8Array {
    if (input instanceof ArrayBuffer) return new Uint8Array(input.slice(0));
    if (ArrayBuffer.isView(input))
      return new Uint8Array(
        input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength),
      );
    throw new TypeError('Expected an ArrayBuffer or a typed array');
  }

  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function btoa(text: string) {
    text = String(text);
    let out = '';
    for (let i = 0; i < text.length; i += 3) {
      const a = text.charCodeAt(i), b = text.charCodeAt(i + 1), c = text.charCodeAt(i + 2); // prettier-ignore
      if (a > 255 || b > 255 || c > 255) throw new Error('btoa: characters outside Latin-1');
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += B64[n >> 18] + B64[(n >> 12) & 63];
      out += i + 1 < text.length ? B64[(n >> 6) & 63] : '=';
      out += i + 2 < text.length ? B64[n & 63] : '=';
    }
    return out;
  }
  function atob(data: string) {
    const clean = String(data)
      .replace(/[\t\n\f\r ]+/g, '')
      .replace(/={1,2}$/, '');
    if (/[^A-Za-z0-9+/]/.test(clean) || clean.length % 4 === 1)
      throw new Error('atob: not valid base64');
    let out = '';
    for (let i = 0, bits = 0, n = 0; i < clean.length; i++) {
      n = (n << 6) | B64.indexOf(clean[i]);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out += String.fromCharCode((n >> bits) & 255);
      }
    }
    return out;
  }

  define('TextEncoder', TextEncoder);
  define('TextDecoder', TextDecoder);
  define('atob', atob);
  define('btoa', btoa);
  define('queueMicrotask', (fn: () => void) => void Promise.resolve().then(fn));
  const quiet = () => undefined;
  define('console', { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet, trace: quiet }); // prettier-ignore
  const getRandomValues = (array: any): any => {
    if (!ArrayBuffer.isView(array) || array.byteLength > 65536)
      throw new TypeError('getRandomValues: a typed array of at most 65536 bytes');
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(randomBytes(array.byteLength)); // prettier-ignore
    return array;
  };
  const randomUUID = () => {
    const b = getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    const h = Array.from(b, (x: number) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  define('crypto', { getRandomValues, randomUUID });
  return { utf8Encode, utf8Decode, toBytes };
}
