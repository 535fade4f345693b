import { serviceUnderTest, useService } from '@platform/testing';
import type { PulseDatabase } from '../src/database';
import { pulse } from '../src/index';

// A fixed data set, and the answers worked out by hand (in the comments: local times).

type Row = [name: string, at: string, userId: string, properties?: Record<string, unknown>];
const data: Row[] = [
  // Around the spring DST change in Berlin (2026-03-29 02:00 CET -> 03:00 CEST, 01:00Z).
  ['view', '2026-03-27T23:30:00Z', 'u1', { plan: 'pro' }], // Berlin 03-28 00:30
  ['view', '2026-03-28T22:59:00Z', 'u2', { plan: 'free' }], // 03-28 23:59
  ['view', '2026-03-28T23:00:00Z', 'u1', { plan: 'pro' }], // 03-29 00:00
  ['view', '2026-03-29T00:30:00Z', 'u3', { plan: 'free' }], // 03-29 01:30 CET
  ['view', '2026-03-29T01:30:00Z', 'anon-a', {}], // 03-29 03:30 CEST; anon-a is u3's person
  ['view', '2026-03-29T21:59:00Z', 'u2', { plan: 'pro' }], // 03-29 23:59
  ['view', '2026-03-29T22:00:00Z', 'u1', { plan: 'pro' }], // 03-30 00:00
  ['view', '2026-03-31T10:00:00Z', 'u2', { plan: 'free' }], // 03-31 12:00
  // The repeated hour of autumn: 02:30 CEST, then 02:30 CET.
  ['tick', '2026-10-25T00:30:00Z', 'u1'],
  ['tick', '2026-10-25T01:30:00Z', 'u1'],
  // Around midnight in India (+05:30).
  ['buy', '2026-05-01T18:29:00Z', 'u1'], // 05-01 23:59
  ['buy', '2026-05-01T18:30:00Z', 'u2'], // 05-02 00:00
  ['buy', '2026-05-03T06:00:00Z', 'u1'], // 05-03 11:30
  // Funnel signup -> activate -> pay.
  ['signup', '2026-06-01T10:00:00Z', 'f1', { source: 'ads' }],
  ['activate', '2026-06-01T11:00:00Z', 'f1'],
  ['pay', '2026-06-02T09:00:00Z', 'f1'], // 23 h after signing up
  ['signup', '2026-06-01T10:00:00Z', 'f2', { source: 'ads' }],
  ['pay', '2026-06-01T10:30:00Z', 'f2'], // before activating: not the third step
  ['activate', '2026-06-01T12:00:00Z', 'f2'],
  ['activate', '2026-06-01T09:00:00Z', 'f3'], // before signing up: not the second step
  ['signup', '2026-06-01T10:00:00Z', 'f3', { source: 'seo' }],
  ['signup', '2026-06-01T08:00:00Z', 'f4', { source: 'seo' }],
  ['activate', '2026-06-02T09:00:00Z', 'f4'], // 25 h after the first signup
  ['signup', '2026-06-02T08:30:00Z', 'f4', { source: 'ads' }], // a later start converts
  ['pay', '2026-06-02T10:00:00Z', 'f4'],
  ['signup', '2026-06-03T10:00:00Z', 'anon-f5'], // anonymous, then identified as f5
  ['activate', '2026-06-03T10:05:00Z', 'f5'],
  // Retention of visit, by day.
  ...(['07-01', '07-02', '07-04'].map((d) => ['visit', `2026-${d}T12:00:00Z`, 'r1']) as Row[]),
  ...(['07-01', '07-03'].map((d) => ['visit', `2026-${d}T12:00:00Z`, 'r2']) as Row[]),
  ...(['06-30', '07-02'].map((d) => ['visit', `2026-${d}T12:00:00Z`, 'r3']) as Row[]),
  ...(['07-02', '07-03'].map((d) => ['visit', `2026-${d}T12:00:00Z`, 'r4']) as Row[]),
  ['visit', '2026-07-03T12:00:00Z', 'anon-r5'],
  ['visit', '2026-07-04T12:00:00Z', 'r5'],
  // Retention across midnight in India.
  ['open', '2026-08-01T18:29:00Z', 'o1'], // 08-01 23:59
  ['open', '2026-08-01T18:30:00Z', 'o1'], // 08-02 00:00
  ['open', '2026-08-01T20:00:00Z', 'o2'], // 08-02 01:30
];

/** A service with the data set and the persons merging u3/anon-a, anon-f5/f5, anon-r5/r5. */
export function useInsightData() {
  const svc = useService(() => serviceUnderTest(pulse), { scope: 'all' });
  beforeAll(async () => {
    const events = data.map(([name, timestamp, userId, properties]) => ({
      name,
      timestamp,
      userId,
      properties,
    }));
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events/batch',
      payload: { events },
    });
    expect(res.statusCode).toBe(201);
    const db = svc.db.schema<PulseDatabase>('pulse');
    const persons = { P1: ['u3', 'anon-a'], P5: ['anon-f5', 'f5'], PR5: ['anon-r5', 'r5'] };
    await db
      .insertInto('persons')
      .values(Object.keys(persons).map((id) => ({ id, properties: {} })))
      .execute();
    await db
      .insertInto('person_ids')
      .values(
        Object.entries(persons).flatMap(([person, ids]) =>
          ids.map((distinct_id) => ({ distinct_id, person_id: person })),
        ),
      )
      .execute();
  });

  async function get(path: string, query: Record<string, string | number>) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const res = await svc.app.inject({
      method: 'GET',
      url: `/api/v1/pulse/insights/${path}?${qs}`,
    });
    return { status: res.statusCode, body: res.json() };
  }
  const ok = async (path: string, query: Record<string, string | number>) => {
    const { status, body } = await get(path, query);
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    return body.data;
  };
  return { svc, get, ok };
}
