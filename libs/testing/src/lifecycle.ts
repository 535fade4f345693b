/// <reference types="jest" />

export interface UseServiceOptions {
  /**
   * `each` (the default): a new one for every test (beforeEach/afterEach); `all`: one for all the
   * tests of the describe block or file it is called in (beforeAll/afterAll).
   */
  scope?: 'each' | 'all';
  /** The set-up hook's timeout in milliseconds, when it needs more than Jest's. */
  timeout?: number;
}

/**
 * Called at the top of a test file or describe block: starts what `start` makes before each test
 * (or once, with `scope: 'all'`) and closes it after. Answers a stand-in for the current one, to
 * be read inside tests, hooks and the helpers they call:
 *
 * ```ts
 * const svc = useService(() => serviceUnderTest(pulse));
 * it('answers', async () => expect((await svc.app.inject({ url })).statusCode).toBe(200));
 * ```
 */
export function useService<T extends { close(): unknown }>(
  start: () => Promise<T>,
  { scope = 'each', timeout }: UseServiceOptions = {},
): T {
  let running: T | undefined;
  const current = (key: string | symbol): T => {
    if (running) return running;
    throw new Error(
      `useService: '${String(key)}' read outside a test (before the service started or after it closed)`,
    );
  };
  const [setUp, cleanUp] = scope === 'all' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  setUp(async () => {
    running = await start();
  }, timeout);
  cleanUp(async () => {
    const closing = running;
    running = undefined;
    await closing?.close();
  });
  return new Proxy({} as T, {
    get(_, key) {
      // Jest and `await` look for `then` and symbols on values they are given: not a service read.
      if (!running && (key === 'then' || typeof key === 'symbol')) return undefined;
      const target = current(key);
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    has: (_, key) => key in current(key),
    ownKeys: () => Reflect.ownKeys(current('keys')),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(key), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
