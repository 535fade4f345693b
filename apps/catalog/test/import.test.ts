import { sql, type KyselyPlugin } from 'kysely';
import { jsonApi, serviceUnderTest, sleep, testDatabase, useService } from '@platform/testing';
import { catalog } from '../src/index';
import { catalogUnderTest } from './helpers';

const svc = useService(catalogUnderTest);

const entity = (kind: string, name: string, spec: object = {}, metadata: object = {}) => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind,
  metadata: { name, ...metadata },
  spec,
});

/** A small landscape as a team would have it: groups, a system, an API, components, a resource. */
const landscape = () => [
  entity('Group', 'org', { type: 'organization', children: ['payments'] }),
  entity('Group', 'payments', {
    type: 'team',
    parent: 'org',
    children: [],
    profile: { displayName: 'Payments', email: 'pay@example.com' },
  }),
  entity('System', 'shop', { owner: 'group:default/payments' }, { description: 'The shop' }),
  entity('API', 'orders-api', {
    type: 'openapi',
    lifecycle: 'production',
    owner: 'payments',
    system: 'shop',
    definition: 'openapi: 3.0.0',
  }),
  entity('Resource', 'orders-db', { type: 'database', owner: 'payments', system: 'shop' }),
  entity(
    'Component',
    'orders',
    {
      type: 'service',
      lifecycle: 'production',
      owner: 'payments',
      system: 'shop',
      providesApis: ['orders-api'],
      dependsOn: ['resource:orders-db', 'component:default/auth'],
    },
    {
      description: 'Takes orders',
      tags: ['java'],
      links: [{ url: 'https://example.com/orders', title: 'Docs' }],
      annotations: { 'github.com/project-slug': 'acme/orders' },
      labels: { tier: 'one' },
    },
  ),
  entity('Component', 'auth', { type: 'service', lifecycle: 'production', owner: 'payments' }),
  entity('Location', 'more', { targets: ['./other.yaml'] }),
];

const importing = (entities: object[], dryRun?: boolean) =>
  svc.post('/import', dryRun === undefined ? { entities } : { entities, dryRun });

it('imports a landscape, maps the Backstage fields, and a second run changes nothing', async () => {
  const first = await importing(landscape());
  expect(first.status).toBe(200);
  expect(first.body.data).toMatchObject({ dryRun: false, created: 7, updated: 0, unchanged: 0 });
  expect(first.body.data.skipped).toEqual([]);
  // A Location is not stored: its targets are reported (none followed: no source was sent).
  expect(first.body.data.locations).toEqual([
    {
      namespace: 'default',
      name: 'more',
      source: null,
      targets: [
        {
          target: './other.yaml',
          type: 'file',
          followed: false,
          reason: 'the import does not say which file this Location is in (source)',
        },
      ],
    },
  ]);
  expect(first.body.data.ignored).toEqual(['Component orders: metadata.labels']);

  const orders = (await svc.get('/services/orders')).body.data;
  const auth = (await svc.get('/services/auth')).body.data;
  const db = (await svc.get('/services/orders-db')).body.data;
  const api = (await svc.get('/apis/orders-api')).body.data;
  expect(orders).toMatchObject({
    description: 'Takes orders',
    tags: ['java'],
    type: 'service',
    lifecycle: 'production',
    owner: 'payments',
    system: 'shop',
    links: [{ url: 'https://example.com/orders', title: 'Docs' }],
    annotations: { 'github.com/project-slug': 'acme/orders' },
    dependencies: [db.id, auth.id],
    providesApis: [api.id],
  });
  expect(db).toMatchObject({ type: 'database', owner: 'payments', system: 'shop' });
  expect(api).toMatchObject({ type: 'openapi', definition: 'openapi: 3.0.0', system: 'shop' });
  expect((await svc.get('/owners/payments')).body.data).toMatchObject({
    kind: 'group',
    parent: 'org',
    email: 'pay@example.com',
    team: 'Payments',
  });
  expect((await svc.get('/systems/shop')).body.data).toMatchObject({
    owner: 'payments',
    description: 'The shop',
  });

  const second = await importing(landscape());
  expect(second.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 7 });
  expect((await svc.get('/services/orders')).body.data.updatedAt).toBe(orders.updatedAt);
});

it('reports a Location target that is no URL, instead of failing', async () => {
  const location = entity('Location', 'bad', {
    type: 'url',
    targets: ['http://[oops', './ok.yaml'],
  });
  const res = await importing([{ ...location, source: 'https://example.com/catalog-info.yaml' }]);
  expect(res.status).toBe(200);
  expect(res.body.data.locations[0].targets.map((t: any) => t.reason)).toEqual([
    'http://[oops is not a valid URL',
    'https://example.com/ok.yaml is not a document of this import (never fetched)',
  ]);
});

it('updates what changed, names the fields, and clears what the descriptor no longer says', async () => {
  await importing(landscape());
  const changed = landscape();
  changed[5] = entity('Component', 'orders', { type: 'service', owner: 'payments' });
  const res = await importing(changed);
  expect(res.body.data).toMatchObject({ created: 0, updated: 1, unchanged: 6 });
  const row = res.body.data.entities.find((e: any) => e.name === 'orders');
  expect(row.action).toBe('updated');
  expect(row.changes).toEqual(
    expect.arrayContaining(['description', 'tags', 'lifecycle', 'system', 'dependencies']),
  );
  expect((await svc.get('/services/orders')).body.data).toMatchObject({
    description: null,
    tags: [],
    system: null,
    dependencies: [],
    providesApis: [],
  });
});

it('a dry run reports what would change and writes nothing', async () => {
  const res = await importing(landscape(), true);
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ dryRun: true, created: 7 });
  expect(res.body.data.entities[0]).toMatchObject({ kind: 'Group', action: 'created', id: null });
  expect((await svc.get('/services')).body.data).toEqual([]);
  expect((await svc.get('/owners')).body.data).toEqual([]);
});

it('reports every unknown reference at once and writes nothing', async () => {
  const res = await importing([
    entity('Component', 'web', {
      owner: 'group:ghosts',
      system: 'nowhere',
      dependsOn: ['component:missing'],
      consumesApis: ['api:unknown-api'],
    }),
    entity('System', 'shop', { owner: 'user:nobody' }),
  ]);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('BAD_REQUEST');
  const message: string = res.body.error.message;
  expect(message).toMatch(/^Import refused, nothing written: 5 problems/);
  for (const part of [
    'Component web: spec.owner group:default/ghosts: no group ghosts in the catalog or the import',
    'Component web: spec.system system:default/nowhere: no system nowhere',
    'Component web: spec.dependsOn[0] component:default/missing: no component or resource missing',
    'Component web: spec.consumesApis[0] api:default/unknown-api: no api unknown-api',
    'System shop: spec.owner user:default/nobody: no user nobody',
  ])
    expect(message).toContain(part);
  expect((await svc.get('/services')).body.data).toEqual([]);
  expect((await svc.get('/systems')).body.data).toEqual([]);
});

it('refuses bad fields, duplicates, wrong kinds and parent cycles, naming each', async () => {
  await svc.post('/owners', { name: 'ann', kind: 'user' });
  const res = await importing([
    entity(
      'Component',
      'a',
      { owner: 'group:ann', dependsOn: ['a'] },
      { links: [{ url: 'javascript:x' }] },
    ),
    entity('Resource', 'A'),
    entity('Group', 'x', { parent: 'y' }),
    entity('Group', 'y', { parent: 'x' }),
    entity('API', 'no-type', {}),
    entity('Component', 'other-ns', {}, { namespace: 'team a' }),
  ]);
  expect(res.status).toBe(400);
  const message: string = res.body.error.message;
  for (const part of [
    'Component a: metadata.links[0].url must be an http, https or mailto URL',
    'Resource A: the same service as Component a',
    'Component a: spec.owner group:default/ann is a user',
    'Component a: spec.dependsOn names itself',
    'Group x: spec.parent would make a cycle: x -> y -> x',
    'API no-type: spec.type is required',
    'Component team a/other-ns: metadata.namespace must be 1-63 letters, digits and dashes',
  ])
    expect(message).toContain(part);
  expect((await svc.get('/owners')).body.data).toHaveLength(1);
});

it('links to records already in the catalog, and refuses an unknown body field', async () => {
  await svc.post('/owners', { name: 'Platform' });
  await svc.service('billing');
  const res = await importing([
    entity('Component', 'web', { owner: 'platform', dependsOn: ['component:Billing'] }),
  ]);
  expect(res.body.data).toMatchObject({ created: 1 });
  const web = (await svc.get('/services/web')).body.data;
  expect(web.owner).toBe('Platform');
  expect(web.dependencies).toEqual([(await svc.get('/services/billing')).body.data.id]);
  const bad = await svc.post('/import', { entities: [], force: true });
  expect(bad.status).toBe(400);
  expect(bad.body.error.message).toContain('force');
});

it('imports the most entities a request takes (10,000: inserts in chunks under the bind limit)', async () => {
  const many = [
    entity('Group', 'big-team'),
    ...Array.from({ length: 9999 }, (_, i) =>
      entity('Component', `svc-${i}`, {
        type: 'service',
        lifecycle: 'production',
        owner: 'big-team',
      }),
    ),
  ];
  const res = await importing(many);
  expect(res.body.error).toBeUndefined();
  expect(res.body.data).toMatchObject({ created: 10000, updated: 0, unchanged: 0 });
  const last = (await svc.get('/services/svc-9998')).body.data;
  expect(last).toMatchObject({ owner: 'big-team', lifecycle: 'production' });
  const again = await importing(many);
  expect(again.body.data).toMatchObject({ created: 0, unchanged: 10000 });
}, 120_000);

it('takes the owner-parent lock (as a PATCH of a parent does) before reading the owners', async () => {
  const seen: string[] = [];
  const tracer: KyselyPlugin = {
    transformQuery({ node }) {
      const raw = node as unknown as { kind: string; sqlFragments?: readonly string[] };
      seen.push(raw.kind === 'RawNode' ? raw.sqlFragments!.join('?') : raw.kind);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const database = await testDatabase();
  const kysely = database.kysely.withPlugin(tracer);
  const traced = await serviceUnderTest(catalog, {
    db: { ...database, kysely, schema: (name: string) => kysely.withSchema(name) as never },
  });
  try {
    const api = jsonApi(traced.app, catalog.prefix);
    seen.length = 0;
    expect((await api.post('/import', { entities: [entity('Group', 'g')] })).status).toBe(200);
    const lock = seen.findIndex((q) => q.includes('pg_advisory_xact_lock'));
    expect(lock).toBeGreaterThanOrEqual(0);
    expect(seen.slice(0, lock)).not.toContain('SelectQueryNode');
    if (database.kind === 'postgres') {
      // Held elsewhere, the lock makes an import wait until it is released.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const taken = new Promise<void>((resolve) => (locked = resolve));
      const holder = database.kysely.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext('catalog.owners.parent'))`.execute(trx);
        locked();
        await held;
      });
      await taken;
      let done = false;
      const waiting = api.post('/import', { entities: [entity('Group', 'h')] }).then((r) => {
        done = true;
        return r;
      });
      await sleep(300);
      expect(done).toBe(false);
      release();
      await holder;
      expect((await waiting).status).toBe(200);
    }
  } finally {
    await traced.close();
  }
});
