import { request } from 'undici';
import { listen, useService } from '@platform/testing';
import { gatewayUnderTest } from './helpers';

const gw = useService(gatewayUnderTest);

it('loses nothing under concurrent single and batch writes, with reads in between', async () => {
  const base = await listen(gw.app);
  const post = (path: string, body: unknown) =>
    request(`${base}/api/v1/pulse${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({
      status: r.statusCode,
      body: (await r.body.json()) as { data: { ingested?: number } },
    }));
  const read = () => request(`${base}/api/v1/pulse/reports/top-events`).then((r) => r.body.json());

  const work = Array.from({ length: 400 }, (_, i) => {
    if (i % 10 === 0)
      return post('/events/batch', {
        events: Array.from({ length: 50 }, () => ({ name: 'batched' })),
      });
    if (i % 10 === 5) return read().then(() => ({ status: 200, body: { data: {} } }));
    return post('/events', { name: 'single', userId: `u${i}` });
  });
  const results = await Promise.all(work);

  expect(results.filter((r) => r.status >= 400)).toEqual([]);
  const top = (await (await request(`${base}/api/v1/pulse/reports/top-events`)).body.json()) as {
    data: unknown;
  };
  expect(top.data).toEqual([
    { name: 'batched', count: 40 * 50 },
    { name: 'single', count: 320 },
  ]);
});
