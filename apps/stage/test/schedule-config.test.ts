import { opsConfig } from '../src/config/ops';
import { nextTick, parseSchedules } from '../src/domain/backends/schedule-config';

// config.schedules as PATCH /apps checks it: every mistake a 400 naming the schedule and field.
const limits = opsConfig({ STAGE_SCHEDULES_MAX: '2' });
const refused = (schedules: unknown) => {
  try {
    parseSchedules({ schedules }, limits);
  } catch (error) {
    return [(error as { code: string }).code, (error as Error).message];
  }
  throw new Error('accepted');
};

describe('config.schedules', () => {
  it('accepts routes and workflows, with defaults', () => {
    expect(
      parseSchedules(
        {
          other: 1,
          schedules: {
            nightly: { cron: '0 3 * * *', route: '/cleanup' },
            digest: { cron: '*/15 * * * *', workflow: 'send', timezone: 'Europe/Paris' },
          },
        },
        limits,
      ),
    ).toEqual([
      { name: 'nightly', definition: { cron: '0 3 * * *', timezone: null, route: '/cleanup', method: 'POST' } }, // prettier-ignore
      { name: 'digest', definition: { cron: '*/15 * * * *', timezone: 'Europe/Paris', workflow: 'send', input: {} } }, // prettier-ignore
    ]);
    expect(parseSchedules({}, limits)).toEqual([]);
  });

  it('refuses what cannot run, naming it', () => {
    expect(refused({ x: { cron: '61 * * * *', route: '/a' } })).toEqual([
      'BAD_REQUEST',
      'config.schedules.x.cron: "61 * * * *" is not a valid cron expression (CronPattern: Invalid value for minute: 61)',
    ]);
    expect(refused({ x: { cron: '* * *', route: '/a' } })[1]).toMatch(/^config\.schedules\.x\.cron: "\* \* \*" is not a valid cron expression/); // prettier-ignore
    expect(refused({ x: { cron: '0 0 30 2 *', route: '/a' } })[1]).toBe('config.schedules.x.cron: "0 0 30 2 *" never runs'); // prettier-ignore
    expect(refused([{ cron: '* * * * *' }])[1]).toMatch(/^config\.schedules must be an object of schedules by name/); // prettier-ignore
    expect(refused({ x: { cron: '* * * * *' } })[1]).toMatch(/^config\.schedules\.x must name either a route/); // prettier-ignore
    expect(refused({ x: { cron: '* * * * *', route: '/a', workflow: 'w' } })[1]).toMatch(/must name either/); // prettier-ignore
    expect(refused({ x: { cron: '* * * * *', route: 'a' } })[1]).toMatch(/^config\.schedules\.x\.route must be a path/); // prettier-ignore
    expect(refused({ x: { cron: '* * * * *', route: '/a', method: 'BREW' } })[1]).toMatch(/^config\.schedules\.x\.method must be one of/); // prettier-ignore
    expect(refused({ x: { cron: '* * * * *', route: '/a', every: 1 } })[1]).toBe('config.schedules.x.every is not a field of a schedule (cron, timezone, route, method, body, workflow, input)'); // prettier-ignore
    expect(refused({ x: { cron: '* * * * *', route: '/a', timezone: 'Mars/Olympus' } })[1]).toBe('config.schedules.x.timezone: "Mars/Olympus" is not an IANA time zone name'); // prettier-ignore
    expect(refused({ 'a b': { cron: '* * * * *', route: '/a' } })[1]).toMatch(/^config\.schedules: the name "a b" must be/); // prettier-ignore
    expect(refused({ a: { cron: '* * * * *', route: '/a' }, b: { cron: '* * * * *', route: '/b' }, c: { cron: '* * * * *', route: '/c' } })[1]).toBe('config.schedules has 3 schedules, over 2 (STAGE_SCHEDULES_MAX)'); // prettier-ignore
  });

  it("computes the next tick strictly after a time, in the schedule's time zone", () => {
    const at = new Date('2026-01-01T00:05:00.000Z');
    expect(nextTick({ cron: '*/5 * * * *', timezone: null }, at)?.toISOString()).toBe('2026-01-01T00:10:00.000Z'); // prettier-ignore
    expect(nextTick({ cron: '0 3 * * *', timezone: 'Europe/Paris' }, at)?.toISOString()).toBe('2026-01-01T02:00:00.000Z'); // prettier-ignore
    expect(nextTick({ cron: '* * * * * *', timezone: null }, at)?.toISOString()).toBe('2026-01-01T00:05:01.000Z'); // prettier-ignore
  });
});
