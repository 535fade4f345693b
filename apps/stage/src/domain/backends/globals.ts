/* eslint-disable @typescript-eslint/no-explicit-any -- this code runs inside the isolate, untyped */
// console and fetch in the isolate. Like installWebApis (polyfill.ts), each function is turned into
// source text and run in every isolate before the app (isolate.ts prelude): it may use nothing
// from this module's scope. Both reach outside only through the runtime: console lines through the
// synchronous host call (log-book.ts keeps them per request), fetch as a platform call (host.ts
// and outbound.ts perform it in the service, with the private-address guard and the limits).

/**
 * console.log/info/warn/error/debug (trace, dir and table as debug and log): captured lines, each
 * with the request whose handler runs synchronously when it is logged (the bridge knows; after
 * an await it cannot be told, and the runtime decides: log-book.ts).
 */
export function installConsole(
  g: any,
  hostSync: (op: string, arg: unknown) => unknown,
  current: () => number | null,
) {
  // Cut here already (the runtime cuts to STAGE_BACKEND_LOG_LINE_BYTES): nothing huge is copied.
  const MAX_CHARS = 65536;
  const StringOf = String;
  const stringify = JSON.stringify;
  const show = (value: any): string => {
    if (typeof value === 'string') return value;
    if (value instanceof Error)
      return value.stack ? StringOf(value.stack) : `${value.name}: ${value.message}`;
    if (typeof value === 'function') return `[Function ${value.name || '(anonymous)'}]`;
    if (typeof value === 'bigint') return `${value}n`;
    if (value === undefined || typeof value === 'symbol') return StringOf(value);
    try {
      const text = stringify(value);
      return text === undefined ? StringOf(value) : text;
    } catch {
      return StringOf(value); // a cycle
    }
  };
  /** console's own formatting: %s %d %i %f %o %O %j %c %% in a first string argument. */
  const format = (args: any[]): string => {
    if (typeof args[0] !== 'string' || args.length < 2 || !args[0].includes('%'))
      return args.map(show).join(' ');
    const rest = args.slice(1);
    const head = args[0].replace(/%[sdifoOjc%]/g, (spec: string) => {
      if (spec === '%%') return '%';
      if (rest.length === 0) return spec;
      const value = rest.shift();
      if (spec === '%d' || spec === '%i') return StringOf(parseInt(value, 10));
      if (spec === '%f') return StringOf(Number(value));
      if (spec === '%c') return '';
      return show(value);
    });
    return [head, ...rest.map(show)].join(' ');
  };
  const line =
    (level: string) =>
    (...args: any[]) => {
      try {
        hostSync('console', [level, format(args).slice(0, MAX_CHARS), current()]);
      } catch {
        // The runtime refused it (the isolate is being stopped): nothing to tell the app.
      }
    };
  const captured = {
    log: line('log'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    debug: line('debug'),
    trace: line('debug'),
    dir: line('log'),
    table: line('log'),
  };
  Object.defineProperty(g, 'console', { value: captured, writable: true, configurable: true });
}

/**
 * fetch(input, init) as in Workers: the request as the Request class makes it, sent as a platform
 * call, answered as a Response (status, headers, body as bytes; url and redirected). `redirect`
 * is follow (default), manual (the 3xx answered as is) or error. Any failure (refused, too
 * large, too slow, unreachable) is a TypeError saying why, as a network error is in browsers.
 */
export function installFetch(g: any) {
  const { Request, Response } = g;
  const call = g.__stage_call;
  const NULL_BODY = [101, 204, 205, 304];
  const REDIRECTS = ['follow', 'manual', 'error'];
  async function fetch(input: any, init: any = {}) {
    const request = new Request(input, init ?? {});
    const redirect = init?.redirect ?? (input instanceof Request ? input.redirect : 'follow');
    if (!REDIRECTS.includes(redirect))
      throw new TypeError(`fetch: redirect must be follow, manual or error, not ${redirect}`);
    const headers: Array<[string, string]> = [];
    request.headers.forEach((value: string, name: string) => headers.push([name, value]));
    let out: any;
    try {
      out = await call(null, 'fetch', [
        { url: request.url, method: request.method, headers, body: request._bytes(), redirect },
      ]);
    } catch (error: any) {
      const failure: any = new TypeError(error?.message ?? String(error));
      failure.code = error?.code;
      throw failure;
    }
    const response = new Response(NULL_BODY.includes(out.status) ? null : out.body, {
      status: out.status,
      statusText: out.statusText,
      headers: out.headers,
    });
    response.url = out.url;
    response.redirected = out.redirected;
    return response;
  }
  Object.defineProperty(g, 'fetch', { value: fetch, writable: true, configurable: true });
}
