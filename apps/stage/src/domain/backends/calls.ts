import type { HostResult } from './isolate.js';

/** Virtual-module calls of one isolate under way at once; further ones wait, up to QUEUED. */
export const MAX_CALLS_IN_FLIGHT = 16;
export const MAX_CALLS_QUEUED = 1000;

export const refused = (code: string, message: string): HostResult => ({
  ok: false,
  code,
  message,
});

/**
 * The platform calls of one isolate: at most MAX_CALLS_IN_FLIGHT reach the service at once, the
 * next MAX_CALLS_QUEUED wait their turn, any more fail at once (RATE_LIMITED). A waiting call is
 * checked again when its turn comes (`task` refuses it if its request has ended).
 */
export class CallQueue {
  private active = 0;
  private waiting: Array<() => void> = [];

  run(op: string, task: () => Promise<HostResult>): Promise<HostResult> {
    if (this.active < MAX_CALLS_IN_FLIGHT) return this.start(task);
    if (this.waiting.length >= MAX_CALLS_QUEUED)
      return Promise.resolve(
        refused(
          'RATE_LIMITED',
          `${op}: too many platform calls at once (${MAX_CALLS_IN_FLIGHT} under way and ${MAX_CALLS_QUEUED} waiting)`,
        ),
      );
    return new Promise((resolve) => this.waiting.push(() => resolve(this.start(task))));
  }

  private async start(task: () => Promise<HostResult>) {
    this.active += 1;
    try {
      return await task();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }

  /** The isolate is gone: nobody waits for the waiting calls any more. */
  clear() {
    this.waiting = [];
  }
}

/**
 * Bytes of JSON of a call's arguments, bytes (a fetch body) counted as such, or null when they
 * are not JSON (cycles, too deep).
 */
export function argumentBytes(args: unknown[]): number | null {
  try {
    let bytes = 0;
    const text = JSON.stringify(args, (_key, value: unknown) => {
      if (!ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer)) return value;
      bytes += value.byteLength;
      return null;
    });
    return Buffer.byteLength(text ?? '') + bytes;
  } catch {
    return null;
  }
}
