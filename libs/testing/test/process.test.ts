import { join } from 'node:path';
import { sleep, startProcess } from '../src/index';

const entry = join(__dirname, 'fixtures/spin-server.mjs');

describe('startProcess', () => {
  it("counts the CPU time the process uses, and none once it's gone", async () => {
    const server = await startProcess(entry, {});
    try {
      const before = server.cpuMicros()!;
      expect(before).toBeGreaterThan(0);
      // Idle, the count stays (within a tick or two of the timer).
      await sleep(300);
      const idle = server.cpuMicros()! - before;
      expect(idle).toBeLessThan(100_000);
      const res = await fetch(`${server.url}/spin?ms=400`);
      expect(await res.text()).toBe('ok');
      const busy = server.cpuMicros()! - before - idle;
      // 400 ms of CPU, counted (from /proc) in ticks of 10 ms.
      expect(busy).toBeGreaterThanOrEqual(300_000);
      expect(busy).toBeLessThan(2_000_000);
    } finally {
      await server.stop();
    }
    expect(server.cpuMicros()).toBeUndefined();
  });
});
