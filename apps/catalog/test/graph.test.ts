import { useService } from '@platform/testing';
import { catalogUnderTest } from './helpers';

const svc = useService(catalogUnderTest);
let ids: Record<string, string>;
beforeEach(async () => {
  // web -> api -> db, api -> cache -> db (a diamond), db -> backup, and a cycle: backup -> api.
  // audit stands apart; worker -> api.
  ids = {};
  for (const name of ['web', 'api', 'db', 'cache', 'backup', 'audit', 'worker'])
    ids[name] = (await svc.service(name)).id;
  await svc.depend('web', 'api');
  await svc.depend('api', 'db', 'cache');
  await svc.depend('cache', 'db');
  await svc.depend('db', 'backup');
  await svc.depend('backup', 'api');
  await svc.depend('worker', 'api');
});

const graph = async (query: string) => (await svc.get(`/deps/${query}`)).body.data;
const nodes = (g: { nodes: Array<{ name: string; depth: number }> }) =>
  g.nodes.map((n) => `${n.name}@${n.depth}`);
const edges = (g: { edges: Array<{ from: string; to: string }> }) => {
  const name = Object.fromEntries(Object.entries(ids).map(([n, id]) => [id, n]));
  return g.edges.map((e) => `${name[e.from]}->${name[e.to]}`).sort();
};

describe('GET /deps/:idOrName', () => {
  it('walks down: every service once, at its shortest depth, through the cycle', async () => {
    const g = await graph('web');
    expect(g.root).toEqual({ id: ids.web, name: 'web' });
    expect(g.direction).toBe('down');
    expect(g.depth).toBeNull();
    expect(nodes(g)).toEqual(['web@0', 'api@1', 'cache@2', 'db@2', 'backup@3']);
    expect(g.nodes[0]).toEqual({ id: ids.web, name: 'web', depth: 0 });
    expect(edges(g)).toEqual([
      'api->cache',
      'api->db',
      'backup->api',
      'cache->db',
      'db->backup',
      'web->api',
    ]);
  });

  it('walks up: what depends on it, directly or not', async () => {
    const g = await graph(`${ids.db}?direction=up`);
    expect(nodes(g)).toEqual(['db@0', 'api@1', 'cache@1', 'backup@2', 'web@2', 'worker@2']);
    expect(edges(g)).toEqual([
      'api->cache',
      'api->db',
      'backup->api',
      'cache->db',
      'db->backup',
      'web->api',
      'worker->api',
    ]);
  });

  it('stops at the depth asked for, leaving out the edges beyond it', async () => {
    const one = await graph('web?depth=2');
    expect(nodes(one)).toEqual(['web@0', 'api@1', 'cache@2', 'db@2']);
    expect(edges(one)).toEqual(['api->cache', 'api->db', 'web->api']);
    expect(one.depth).toBe(2);
    const zero = await graph('web?depth=0');
    expect(nodes(zero)).toEqual(['web@0']);
    expect(zero.edges).toEqual([]);
  });

  it('answers a service without dependencies with itself alone', async () => {
    const g = await graph('audit');
    expect(nodes(g)).toEqual(['audit@0']);
    expect(g.edges).toEqual([]);
    expect(nodes(await graph('web?direction=up'))).toEqual(['web@0']);
  });

  it('follows changes at once', async () => {
    await svc.del('/services/api/dependencies/db');
    await svc.del('/services/cache');
    expect(nodes(await graph('web'))).toEqual(['web@0', 'api@1']);
  });

  it.each([
    ['ghost', 404, 'Service not found: ghost'],
    ['web?direction=sideways', 400, 'direction must be one of: down, up'],
    ['web?depth=-1', 400, 'depth must be at least 0'],
    ['web?depth=two', 400, 'depth must be an integer'],
  ])('answers %s with %i', async (query, status, message) => {
    const res = await svc.get(`/deps/${query}`);
    expect(res.status).toBe(status);
    expect(res.body.error.message).toBe(message);
  });

  it('walks a long chain and a wide fan-out', async () => {
    let previous = 'web';
    for (let i = 0; i < 60; i++) {
      await svc.service(`chain-${i}`);
      await svc.depend(previous, `chain-${i}`);
      previous = `chain-${i}`;
    }
    await svc.depend(previous, 'web'); // and back to the start
    const g = await graph('web');
    expect(g.nodes).toHaveLength(65);
    expect(g.nodes.find((n: { name: string }) => n.name === 'chain-59').depth).toBe(60);
  });
});

describe('GET /deps/:idOrName?include=apis', () => {
  // shop consumes the orders API, which orders-svc provides; orders-svc consumes payments
  // (pay-svc provides it) and depends on pay-svc directly too.
  let apis: Record<string, string>;
  beforeEach(async () => {
    apis = {};
    for (const name of ['orders', 'payments'])
      apis[name] = (await svc.post('/apis', { name, type: 'openapi' })).body.data.id;
    for (const name of ['shop', 'orders-svc', 'pay-svc']) ids[name] = (await svc.service(name)).id;
    await svc.put('/services/shop', { consumesApis: ['orders'] });
    await svc.put('/services/orders-svc', { providesApis: ['orders'], consumesApis: ['payments'] });
    await svc.put('/services/pay-svc', { providesApis: ['payments'] });
    await svc.depend('orders-svc', 'pay-svc');
  });

  it('follows only direct dependencies by default', async () => {
    expect(nodes(await graph('shop'))).toEqual(['shop@0']);
  });

  it('walks through the APIs: a consumer depends on the providers', async () => {
    const g = await graph('shop?include=apis');
    expect(g.include).toBe('apis');
    expect(nodes(g)).toEqual(['shop@0', 'orders-svc@1', 'pay-svc@2']);
    expect(g.edges).toEqual(
      expect.arrayContaining([
        { from: ids.shop, to: ids['orders-svc'], direct: false, apis: [apis.orders] },
        { from: ids['orders-svc'], to: ids['pay-svc'], direct: true, apis: [apis.payments] },
      ]),
    );
    expect(g.edges).toHaveLength(2);
    expect(g.apis).toEqual([
      { id: apis.orders, name: 'orders' },
      { id: apis.payments, name: 'payments' },
    ]);
    const up = await graph('pay-svc?include=apis&direction=up');
    expect(nodes(up)).toEqual(['pay-svc@0', 'orders-svc@1', 'shop@2']);
    expect(nodes(await graph('shop?include=apis&depth=1'))).toEqual(['shop@0', 'orders-svc@1']);
  });

  it('forgets a deleted API at once (deleted once no service provides or consumes it)', async () => {
    expect((await svc.del('/apis/orders')).status).toBe(409);
    await svc.put('/services/shop', { consumesApis: [] });
    await svc.put('/services/orders-svc', { providesApis: [] });
    expect((await svc.del('/apis/orders')).status).toBe(200);
    expect(nodes(await graph('shop?include=apis'))).toEqual(['shop@0']);
    expect((await svc.get('/deps/shop?include=everything')).status).toBe(400);
  });
});
