import { useInsightData } from './insights-data';

// Trends on the fixed data set of insights-data.ts, against answers worked out by hand.
const { svc, get, ok } = useInsightData();

describe('trends', () => {
  const view = { event: 'view', from: '2026-03-28', to: '2026-04-01' };

  it('counts per local day across the spring DST change, the empty day as 0', async () => {
    const data = await ok('trends', { ...view, tz: 'Europe/Berlin' });
    expect(data.periods).toEqual([
      '2026-03-28T00:00:00+01:00',
      '2026-03-29T00:00:00+01:00',
      '2026-03-30T00:00:00+02:00',
      '2026-03-31T00:00:00+02:00',
      '2026-04-01T00:00:00+02:00',
    ]);
    expect(data.series).toEqual([{ breakdown: null, counts: [2, 4, 1, 1, 0], total: 8 }]);
    expect([data.from, data.to]).toEqual(['2026-03-27T23:00:00.000Z', '2026-04-01T21:59:59.999Z']);
  });

  it('counts the same events per UTC day differently', async () => {
    const data = await ok('trends', view);
    expect(data.periods[0]).toBe('2026-03-28T00:00:00+00:00');
    expect(data.series[0]).toEqual({ breakdown: null, counts: [2, 4, 0, 1, 0], total: 7 });
  });

  it('counts unique users, merged ids once', async () => {
    const data = await ok('trends', { ...view, tz: 'Europe/Berlin', math: 'unique_users' });
    expect(data.series).toEqual([{ breakdown: null, counts: [2, 3, 1, 1, 0], total: 3 }]);
  });

  it('has no 02:00 on the spring night, and two on the autumn one', async () => {
    const spring = await ok('trends', {
      event: 'view',
      interval: 'hour',
      tz: 'Europe/Berlin',
      from: '2026-03-29T00:00',
      to: '2026-03-29T04:59',
    });
    expect(spring.periods).toEqual([
      '2026-03-29T00:00:00+01:00',
      '2026-03-29T01:00:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T04:00:00+02:00',
    ]);
    expect(spring.series[0].counts).toEqual([1, 1, 1, 0]);
    const autumn = await ok('trends', {
      event: 'tick',
      interval: 'hour',
      tz: 'Europe/Berlin',
      from: '2026-10-24T23:00:00Z',
      to: '2026-10-25T02:59:59Z',
    });
    expect(autumn.periods).toEqual([
      '2026-10-25T01:00:00+02:00',
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:00:00+01:00',
      '2026-10-25T03:00:00+01:00',
    ]);
    expect(autumn.series[0].counts).toEqual([0, 1, 1, 0]);
  });

  it('takes +05:30 as an offset and as Asia/Kolkata alike, hours at half past UTC', async () => {
    const range = { event: 'buy', from: '2026-05-01', to: '2026-05-04' };
    const offset = await ok('trends', { ...range, tz: '+05:30' });
    expect(offset.periods[1]).toBe('2026-05-02T00:00:00+05:30');
    expect(offset.series[0].counts).toEqual([1, 1, 1, 0]);
    const named = await ok('trends', { ...range, tz: 'Asia/Kolkata' });
    expect(named.series).toEqual(offset.series);
    expect((await ok('trends', range)).series[0].counts).toEqual([2, 0, 1, 0]);
    const hours = await ok('trends', {
      event: 'buy',
      interval: 'hour',
      tz: '+05:30',
      from: '2026-05-01T23:00',
      to: '2026-05-02T00:59',
    });
    expect(hours.periods).toEqual(['2026-05-01T23:00:00+05:30', '2026-05-02T00:00:00+05:30']);
    expect(hours.series[0].counts).toEqual([1, 1]);
  });

  it('counts by week (from Monday) and by month', async () => {
    const tz = 'Europe/Berlin';
    const weeks = await ok('trends', {
      event: 'view',
      interval: 'week',
      tz,
      from: '2026-03-23',
      to: '2026-04-05',
    });
    expect(weeks.periods).toEqual(['2026-03-23T00:00:00+01:00', '2026-03-30T00:00:00+02:00']);
    expect(weeks.series[0].counts).toEqual([6, 2]);
    const months = await ok('trends', {
      event: 'view',
      interval: 'month',
      tz,
      from: '2026-02-01',
      to: '2026-04-30',
    });
    expect(months.periods).toEqual([
      '2026-02-01T00:00:00+01:00',
      '2026-03-01T00:00:00+01:00',
      '2026-04-01T00:00:00+02:00',
    ]);
    expect(months.series[0].counts).toEqual([0, 8, 0]);
  });

  it('breaks down by a property, largest first, absent as null, limited', async () => {
    const query = { ...view, tz: 'Europe/Berlin', breakdown: 'plan' };
    expect((await ok('trends', query)).series).toEqual([
      { breakdown: 'pro', counts: [1, 2, 1, 0, 0], total: 4 },
      { breakdown: 'free', counts: [1, 1, 0, 1, 0], total: 3 },
      { breakdown: null, counts: [0, 1, 0, 0, 0], total: 1 },
    ]);
    const top = await ok('trends', { ...query, breakdownLimit: 2 });
    expect(top.series.map((s: { breakdown: string }) => s.breakdown)).toEqual(['pro', 'free']);
  });

  it('answers zeros for an event never seen, and an empty list of series for a breakdown', async () => {
    const none = await ok('trends', { event: 'nothing', from: '2026-01-01', to: '2026-01-03' });
    expect(none.series).toEqual([{ breakdown: null, counts: [0, 0, 0], total: 0 }]);
    const split = await ok('trends', {
      event: 'nothing',
      from: '2026-01-01',
      to: '2026-01-03',
      breakdown: 'x',
    });
    expect(split.series).toEqual([]);
  });

  it('counts by the hour where DST moves half an hour (Lord Howe), and takes any spelling of a zone', async () => {
    // 2026-04-05 02:00 +11:00 (15:00Z) becomes 01:30 +10:30: hours start at :30 past UTC after.
    const at = ['2026-04-04T14:10:00Z', '2026-04-04T15:45:00Z', '2026-04-04T16:40:00Z'];
    for (const [i, timestamp] of at.entries())
      await svc.app.inject({
        method: 'POST',
        url: '/api/v1/pulse/events',
        payload: { id: `lh-${i}`, name: 'lh', timestamp },
      });
    const range = {
      event: 'lh',
      interval: 'hour',
      from: '2026-04-04T13:00:00Z',
      to: '2026-04-04T17:59:59Z',
    };
    const data = await ok('trends', { ...range, tz: 'australia/lord_howe' });
    expect(data.tz).toBe('Australia/Lord_Howe');
    expect(data.series[0].total).toBe(3);
    expect(data.series[0].counts.reduce((a: number, b: number) => a + b, 0)).toBe(3);
    expect(data.periods.length).toBe(data.series[0].counts.length);
  });

  it.each([
    [{ event: 'view', tz: 'Mars/Olympus' }, /tz is not a known time zone: Mars\/Olympus/],
    [{ event: 'view', tz: '+25:00' }, /tz is not a valid offset/],
    [{ event: 'view', tz: '+05:07' }, /whole quarter hours/],
    [{ event: 'view', from: '2026-03-02', to: '2026-03-01' }, /from must not be after to/],
    [{ event: 'view', from: '2026-02-30' }, /from is not a valid date/],
    [
      { event: 'view', interval: 'hour', from: '2026-01-01', to: '2026-03-01' },
      /more than 1000 periods/,
    ],
    [{ event: 'view', interval: 'year' }, /interval/],
    [{ event: 'view', math: 'sum' }, /math/],
    [{ from: '2026-01-01' }, /event/],
  ])('rejects %j with 400', async (query, message) => {
    const { status, body } = await get('trends', query);
    expect(status).toBe(400);
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.message).toMatch(message);
  });
});

describe('rollups', () => {
  it('count an event once when its id is sent again, through both ingestion paths', async () => {
    const post = (url: string, payload: object) =>
      svc.app.inject({ method: 'POST', url: `/api/v1/pulse${url}`, payload });
    const event = { id: 'dup-1', name: 'dup', timestamp: '2026-09-01T10:00:00Z' };
    expect((await post('/events', event)).statusCode).toBe(201);
    expect((await post('/events', event)).statusCode).toBe(200);
    const batch = await post('/events/batch', {
      events: [
        event,
        { ...event, id: 'dup-2' },
        { ...event, id: 'dup-3', timestamp: '2026-09-01T10:14:59Z' },
      ],
    });
    expect(batch.json().data).toEqual({ ingested: 2, duplicates: 1 });
    const day = await ok('trends', { event: 'dup', from: '2026-09-01', to: '2026-09-01' });
    expect(day.series[0].counts).toEqual([3]);
    // A range cut inside a quarter hour reads the events of its ends.
    const cut = await ok('trends', {
      event: 'dup',
      interval: 'hour',
      from: '2026-09-01T10:00:00.001Z',
      to: '2026-09-01T10:14:59Z',
    });
    expect(cut.series[0].counts).toEqual([1]);
  });
});
