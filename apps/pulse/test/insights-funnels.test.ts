import { useInsightData } from './insights-data';

// Funnels and retention on the fixed data set of insights-data.ts, against answers worked out by hand.
const { get, ok } = useInsightData();

const step = (
  n: number,
  event: string,
  count: number,
  conversion: number,
  stepConversion: number,
) => ({
  step: n,
  event,
  count,
  conversion,
  stepConversion,
});

describe('funnels', () => {
  const range = { steps: 'signup,activate,pay', from: '2026-06-01', to: '2026-06-07' };

  it('counts ordered steps within the window, a later start converting, merged ids as one', async () => {
    const data = await ok('funnels', { ...range, window: 86_400 });
    expect(data.steps).toEqual([
      step(1, 'signup', 5, 1, 1),
      step(2, 'activate', 4, 0.8, 0.8),
      step(3, 'pay', 2, 0.4, 0.5),
    ]);
    expect(data.breakdowns).toEqual([]);
  });

  it('narrows with the window', async () => {
    const data = await ok('funnels', { ...range, window: 3600 });
    expect(data.steps.map((s: { count: number }) => s.count)).toEqual([5, 3, 0]);
  });

  it('keeps to the range', async () => {
    const data = await ok('funnels', { ...range, from: '2026-06-02', window: 86_400 });
    expect(data.steps.map((s: { count: number }) => s.count)).toEqual([2, 2, 1]);
  });

  it('breaks down by the first first-step event’s property', async () => {
    const data = await ok('funnels', { ...range, window: 86_400, breakdown: 'source' });
    expect(data.breakdowns).toEqual([
      {
        breakdown: 'ads',
        steps: [
          step(1, 'signup', 2, 1, 1),
          step(2, 'activate', 2, 1, 1),
          step(3, 'pay', 1, 0.5, 0.5),
        ],
      },
      {
        breakdown: 'seo',
        steps: [
          step(1, 'signup', 2, 1, 1),
          step(2, 'activate', 1, 0.5, 0.5),
          step(3, 'pay', 1, 0.5, 1),
        ],
      },
      {
        breakdown: null,
        steps: [step(1, 'signup', 1, 1, 1), step(2, 'activate', 1, 1, 1), step(3, 'pay', 0, 0, 0)],
      },
    ]);
  });

  it('answers zeros when nobody did the first step', async () => {
    const data = await ok('funnels', {
      steps: 'nothing,signup',
      from: '2026-06-01',
      to: '2026-06-07',
    });
    expect(data.steps).toEqual([step(1, 'nothing', 0, 0, 0), step(2, 'signup', 0, 0, 0)]);
  });

  it.each([
    [{ steps: 'signup' }, /steps must name 2 to 10 events/],
    [{ steps: 'a,,b' }, /steps\[1\] must be an event name/],
    [{ steps: 'a,b', window: 0 }, /window/],
    [{ steps: 'a,b', tz: 'Nowhere' }, /tz is not a known time zone/],
  ])('rejects %j with 400', async (query, message) => {
    const { status, body } = await get('funnels', query);
    expect(status).toBe(400);
    expect(body.error.message).toMatch(message);
  });
});

describe('retention', () => {
  it('puts persons in the cohort of their first visit ever, merged ids as one', async () => {
    const data = await ok('retention', { event: 'visit', from: '2026-07-01', to: '2026-07-04' });
    const table = data.cohorts.map(
      (c: { start: string; size: number; periods: { count: number; share: number }[] }) => [
        c.start,
        c.size,
        c.periods.map((p) => p.count),
        c.periods.map((p) => p.share),
      ],
    );
    expect(table).toEqual([
      ['2026-07-01T00:00:00+00:00', 2, [2, 1, 1, 1], [1, 0.5, 0.5, 0.5]],
      ['2026-07-02T00:00:00+00:00', 1, [1, 1, 0], [1, 1, 0]], // r3 first visited on 06-30
      ['2026-07-03T00:00:00+00:00', 1, [1, 1], [1, 1]],
      ['2026-07-04T00:00:00+00:00', 0, [0], [0]],
    ]);
    expect(data.returnEvent).toBe('visit');
  });

  it('counts by week', async () => {
    const data = await ok('retention', {
      event: 'visit',
      interval: 'week',
      from: '2026-06-29',
      to: '2026-07-12',
    });
    expect(
      data.cohorts.map((c: { size: number; periods: { count: number }[] }) => [
        c.size,
        c.periods.map((p) => p.count),
      ]),
    ).toEqual([
      [5, [5, 0]],
      [0, [0]],
    ]);
  });

  it('cuts cohorts at local midnight (+05:30)', async () => {
    const range = { event: 'open', from: '2026-08-01', to: '2026-08-03' };
    const india = await ok('retention', { ...range, tz: '+05:30' });
    expect(
      india.cohorts.map((c: { size: number; periods: { count: number }[] }) => [
        c.size,
        c.periods.map((p) => p.count),
      ]),
    ).toEqual([
      [1, [1, 1, 0]],
      [1, [1, 0]],
      [0, [0]],
    ]);
    const utc = await ok('retention', range);
    expect(
      utc.cohorts.map((c: { size: number; periods: { count: number }[] }) => [
        c.size,
        c.periods.map((p) => p.count),
      ]),
    ).toEqual([
      [2, [2, 0, 0]],
      [0, [0, 0]],
      [0, [0]],
    ]);
  });

  it('counts another return event', async () => {
    const data = await ok('retention', {
      event: 'signup',
      returnEvent: 'pay',
      from: '2026-06-01',
      to: '2026-06-03',
    });
    // Cohort 06-01: f1, f2, f3, f4; f1 and f4 paid on 06-02 (f2 paid on the day itself).
    expect(data.cohorts[0]).toMatchObject({
      size: 4,
      periods: [{ count: 4 }, { count: 2, share: 0.5 }, { count: 0 }],
    });
  });

  it('rejects an interval other than day or week', async () => {
    const { status, body } = await get('retention', { event: 'visit', interval: 'hour' });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/interval/);
  });
});
