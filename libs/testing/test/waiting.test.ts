import { eventually, sleep, useService } from '../src/index';

describe('eventually', () => {
  it('retries a predicate until it answers true', async () => {
    let tries = 0;
    expect(await eventually(() => ++tries === 3, { interval: 1 })).toBe(true);
    expect(tries).toBe(3);
  });

  it('retries assertions until they pass, and answers what the check answered', async () => {
    const started = Date.now();
    const value = await eventually(
      () => {
        expect(Date.now() - started).toBeGreaterThanOrEqual(30);
        return 'done';
      },
      { interval: 5 },
    );
    expect(value).toBe('done');
  });

  it('rejects after the timeout, naming what it awaited and the last failure', async () => {
    await expect(
      eventually(() => expect(1).toBe(2), { timeout: 50, what: 'one being two' }),
    ).rejects.toThrow('one being two did not happen within 50 ms (last failure: ');
    await expect(eventually(() => false, { timeout: 30 })).rejects.toThrow(
      'the check did not happen within 30 ms (it answered false)',
    );
  });
});

describe('useService', () => {
  const started: string[] = [];
  const closed: string[] = [];
  let n = 0;
  const svc = useService(async () => {
    const name = `svc${++n}`;
    started.push(name);
    return { name, greet: () => `hello from ${name}`, close: async () => void closed.push(name) };
  });

  it('starts one before each test and reads it inside the test', () => {
    expect(svc.name).toBe('svc1');
    expect(svc.greet()).toBe('hello from svc1');
  });

  it('closed the last one and started a new one', () => {
    expect(closed).toEqual(['svc1']);
    expect(svc.name).toBe('svc2');
    expect(started).toEqual(['svc1', 'svc2']);
  });

  describe("with scope 'all'", () => {
    let opened = 0;
    const shared = useService(async () => ({ n: ++opened, close: () => sleep(1) }), {
      scope: 'all',
    });

    it('starts one for every test of the block', () => expect(shared.n).toBe(1));
    it('keeps it', () => expect([shared.n, opened]).toEqual([1, 1]));
  });
});

describe('useService read outside a test', () => {
  const svc = useService(async () => ({ close: () => undefined, x: 1 }), { scope: 'all' });
  const early = (() => {
    try {
      return String(svc.x);
    } catch (error) {
      return (error as Error).message;
    }
  })();

  it('says so', () =>
    expect(early).toBe(
      "useService: 'x' read outside a test (before the service started or after it closed)",
    ));
});
