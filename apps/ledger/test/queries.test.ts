import { useService } from '@platform/testing';
import { appendEvents } from '../src/domain/appender';
import { ledgerUnderTest } from './helpers';

// No job polled in the background (retention, signing, sinks) while queries are counted.
const svc = useService(() => ledgerUnderTest({ jobs: false }));

/** Rows listed by `url` and the queries the list cost. */
async function list(url: string) {
  svc.queries.reset();
  const { status, body } = await svc.get(url);
  expect(status).toBe(200);
  return { rows: body.data.length, queries: svc.queries.count() };
}

const MANY = 250;

describe('a list costs the same number of queries whatever its length', () => {
  it('events', async () => {
    await svc.post('/events', { action: 'first', actor: 'ann', metadata: { k: 1 } });
    const one = await list('/events?limit=1000');
    await appendEvents(
      svc.tables(),
      Array.from({ length: MANY }, (_, i) => ({
        id: `many${i}`,
        action: `many.${i}`,
        actor: 'ann',
        resource: null,
        service: 'billing',
        metadata: { i },
        details: {},
        timestamp: new Date(),
      })),
    );
    const many = await list('/events?limit=1000');
    expect(one).toEqual({ rows: 1, queries: 1 });
    expect(many).toEqual({ rows: MANY + 1, queries: one.queries });
  });

  it('retention policies', async () => {
    await svc.post('/policies', { name: 'p-first', retentionDays: 30 });
    const one = await list('/policies?limit=1000');
    await Promise.all(
      Array.from({ length: MANY }, (_, i) =>
        svc.post('/policies', { name: `p${i}`, retentionDays: 1 + i, service: 'billing' }),
      ),
    );
    const many = await list('/policies?limit=1000');
    expect(one).toEqual({ rows: 1, queries: 1 });
    expect(many).toEqual({ rows: MANY + 1, queries: one.queries });
  });

  it('field classifications', async () => {
    const classify = (field: string) =>
      svc.post('/classifications', {
        serviceId: 'billing',
        field,
        level: 'pii',
        justification: 'Needed for invoices',
      });
    await classify('first');
    const one = await list('/classifications?limit=1000');
    await Promise.all(Array.from({ length: MANY }, (_, i) => classify(`f${i}`)));
    const many = await list('/classifications?limit=1000');
    expect(one).toEqual({ rows: 1, queries: 1 });
    expect(many).toEqual({ rows: MANY + 1, queries: one.queries });
  });
});
