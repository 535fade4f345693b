/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface EventuallyOptions {
  /** How long to keep trying, in milliseconds (default 5000). */
  timeout?: number;
  /** The pause between two tries, in milliseconds (default 20). */
  interval?: number;
  /** What is awaited, for the message when it does not happen ("the merge", "delivery 3"). */
  what?: string;
}

/**
 * Runs `check` until it passes, and resolves with what it answered. It passes when it neither
 * throws nor answers `false`: a predicate (`() => rows.length === 2`), assertions
 * (`() => expect(x).toBe(y)`), or a lookup that answers the value awaited (`() => row ?? false`).
 * After `timeout` it rejects, naming `what` and the last failure (its assertion message).
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeout = 5000, interval = 20, what = 'the check' }: EventuallyOptions = {},
): Promise<Exclude<T, false>> {
  const start = performance.now();
  for (;;) {
    let failure: unknown;
    try {
      const value = await check();
      if (value !== false) return value as Exclude<T, false>;
      failure = undefined;
    } catch (error) {
      failure = error;
    }
    const left = timeout - (performance.now() - start);
    if (left <= 0) {
      const last =
        failure === undefined
          ? 'it answered false'
          : `last failure: ${failure instanceof Error ? failure.message : String(failure)}`;
      throw new Error(`${what} did not happen within ${timeout} ms (${last})`, { cause: failure });
    }
    await sleep(Math.min(interval, left));
  }
}

/**
 * For tests of per-minute limits: when fewer than `margin` seconds (default 10) are left of the
 * current UTC minute, waits for the next one, so that the test's calls all fall in one minute.
 */
export async function clearOfMinuteEnd(margin = 10) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < margin * 1000) await sleep(left + 50);
}
