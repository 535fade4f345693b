import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useService } from '@platform/testing';
import { catalogGraph, documents, FIXTURES } from './backstage';
import { catalogUnderTest } from './helpers';

// Real catalogs as their authors publish them (issue 37): Backstage's own example catalog and a
// public organisation's catalog with namespaced references (fixtures/*/NOTICE says where from).
const svc = useService(catalogUnderTest);
const GROUPS = [
  'org',
  'infrastructure',
  'backstage',
  'boxoffice',
  'team-a',
  'team-b',
  'team-c',
  'team-d',
];
const CONSISTENT = [
  'all.yaml',
  'all-domains.yaml',
  'all-systems.yaml',
  'all-resources.yaml',
  ...GROUPS.map((g) => (g === 'org' ? 'acme/org.yaml' : `acme/${g}-group.yaml`)),
  'domains/audio-domain.yaml',
  'domains/artists-domain.yaml',
  'domains/playback-domain.yaml',
  'systems/artist-engagement-portal-system.yaml',
  'systems/audio-playback-system.yaml',
  'resources/artists-db-resource.yaml',
  'components/different-namespace.yaml',
];
/** Files whose references name entities that are in none of the example files. */
const DANGLING = [
  'systems/podcast-system.yaml',
  'components/workplace-component.yaml',
  'components/aware-component.yaml',
];

const importing = (entities: object[]) => svc.post('/import', { entities });
const all = async (path: string) => (await svc.get(`${path}?limit=1000`)).body.data as any[];
const graph = () => catalogGraph(svc);

it("refuses Backstage's example catalog whole while references dangle, naming every one with its file", async () => {
  const res = await importing(documents('backstage-examples', [...CONSISTENT, ...DANGLING]));
  expect(res.status).toBe(400);
  const lines = res.body.error.message.split('\n');
  expect(lines[0]).toBe('Import refused, nothing written: 6 problems');
  expect(lines.slice(1).sort()).toEqual([
    '- Component aware (components/aware-component.yaml): spec.owner group:default/inpixon: no group inpixon in the catalog or the import',
    '- Component aware (components/aware-component.yaml): spec.providesApis[0] api:default/awareproducerservice: no api awareproducerservice in the catalog or the import',
    '- Component aware (components/aware-component.yaml): spec.providesApis[1] api:default/awarecoreinsight: no api awarecoreinsight in the catalog or the import',
    '- Component wokplaceanalytics (components/workplace-component.yaml): spec.owner group:default/inpixon: no group inpixon in the catalog or the import',
    '- Component wokplaceanalytics (components/workplace-component.yaml): spec.providesApis[0] api:default/wokplaceanalytics: no api wokplaceanalytics in the catalog or the import',
    '- System podcast (systems/podcast-system.yaml): spec.owner user:default/team-b is a group',
  ]);
  expect(await all('/owners')).toEqual([]);
  expect(await all('/domains')).toEqual([]);
});

it("imports Backstage's example catalog with the relations Backstage computes, both ways", async () => {
  const res = await importing(documents('backstage-examples', CONSISTENT));
  expect(res.status).toBe(200);
  // The relations Backstage's BuiltinKindsEntityProcessor emits for these files (each reference
  // parsed with the entity's namespace as default, a relation and its inverse), written down once
  // from its rules (NOTICE): the catalog holds the same graph, whichever side named a relation.
  const expected = JSON.parse(
    readFileSync(join(FIXTURES, 'backstage-examples', 'expected-relations.json'), 'utf8'),
  );
  expect(await graph()).toEqual(expected);
  const data = res.body.data;
  expect(data.created).toBe(data.entities.length);
  expect(data.ignored).toEqual(
    expect.arrayContaining([
      'Group acme-corp (acme/org.yaml): spec.ancestors, spec.descendants',
      'System audio-playback (systems/audio-playback-system.yaml): spec.type',
    ]),
  );
  const groups = data.locations.find((l: any) => l.name === 'example-groups');
  expect(groups.targets.every((t: any) => t.followed)).toBe(true);
  const everything = data.locations.find((l: any) => l.name === 'example-all');
  expect(everything.targets.filter((t: any) => !t.followed).map((t: any) => t.target)).toEqual([
    './all-ai-resources.yaml',
    './all-apis.yaml',
    './all-components.yaml',
  ]);
  // Two guests, one name, two namespaces.
  expect((await svc.get('/owners/guest')).body.data).toMatchObject({ namespace: 'default' });
  const dev = (await svc.get('/owners/development%2Fguest')).body.data;
  expect(dev).toMatchObject({
    namespace: 'development',
    kind: 'user',
    memberOf: [{ name: 'team-a' }],
  });
  const backstage = (await svc.get('/owners/backstage')).body.data;
  expect(backstage).toMatchObject({
    type: 'sub-department',
    team: 'Backstage',
    email: 'backstage@example.com',
    description: 'The backstage sub-department',
    picture: expect.stringMatching(/^https:\/\/api\.dicebear\.com\//),
    parent: 'infrastructure',
    children: [{ name: 'team-a' }, { name: 'team-b' }],
  });
  expect((await svc.get('/services/alternative%2Fdifferent-namespace')).body.data).toMatchObject({
    namespace: 'alternative',
    owner: 'team-a',
  });
  expect((await svc.get('/services/different-namespace')).status).toBe(404);

  const again = await importing(documents('backstage-examples', CONSISTENT));
  expect(again.body.data).toMatchObject({ created: 0, updated: 0 });
});

const WEBGRIP = [
  'catalog-info.yaml',
  'catalog/groups/c-level-group.yaml',
  'catalog/domains/operations-domain.yaml',
  'catalog/domains/telemetry-domain.yaml',
  'catalog/systems/kubernetes.yaml',
  'catalog/systems/github-actions-runner-controller.yaml',
  'catalog/resources/staging-doks-cluster.yaml',
  'catalog/components/cert-manager.yaml',
];

it('imports a namespaced catalog whose group children are already in the catalog', async () => {
  // webgrip/infrastructure is described in another repository: here it is in the catalog already,
  // beside a group of the same name in the default namespace.
  expect((await svc.post('/owners', { name: 'infrastructure', namespace: 'webgrip' })).status).toBe(
    201,
  );
  expect((await svc.post('/owners', { name: 'infrastructure' })).status).toBe(201);
  const res = await importing(documents('webgrip', WEBGRIP));
  expect(res.status).toBe(200);
  const data = res.body.data;
  expect(data.entities).toContainEqual(
    expect.objectContaining({
      kind: 'Group',
      namespace: 'webgrip',
      name: 'infrastructure',
      action: 'updated',
      changes: ['parent'],
    }),
  );
  const infra = (await svc.get('/owners/webgrip%2Finfrastructure')).body.data;
  expect(infra).toMatchObject({ namespace: 'webgrip', parent: 'webgrip/c-level-group' });
  expect((await svc.get('/owners/infrastructure')).body.data).toMatchObject({ parent: null });
  expect((await svc.get('/owners/webgrip%2Fc-level-group')).body.data).toMatchObject({
    type: 'department',
    team: 'C-Level',
    email: 'ryan@webgrip.nl',
    children: [{ name: 'webgrip/infrastructure' }],
  });
  expect((await svc.get('/domains/webgrip%2Foperations-domain')).body.data).toMatchObject({
    title: 'Operations',
    type: 'product-area',
    owner: 'webgrip/infrastructure',
    systems: [
      { name: 'webgrip/actions-runner-controller' },
      { name: 'webgrip/gha-runner-scale-set' },
      { name: 'webgrip/github-actions-scale-set-controller' },
      { name: 'webgrip/kubernetes-system' },
    ],
  });
  const cert = (await svc.get('/services/webgrip%2Fcert-manager-component')).body.data;
  const cluster = (await svc.get('/services/webgrip%2Fstaging-doks-cluster')).body.data;
  expect(cert).toMatchObject({
    kind: 'component',
    system: 'webgrip/kubernetes-system',
    dependencies: [cluster.id],
  });
  expect(cluster).toMatchObject({ kind: 'resource', owner: 'webgrip/infrastructure' });
  expect(data.ignored).toEqual(
    expect.arrayContaining([
      'Group webgrip/c-level-group (catalog/groups/c-level-group.yaml): metadata.labels, metadata.annotations, metadata.tags, metadata.links',
      'System webgrip/actions-runner-controller (catalog/systems/github-actions-runner-controller.yaml): relations, metadata.title, metadata.links',
    ]),
  );
  // The organisation's own catalog-info.yaml names files that are not where it says: reported.
  const domains = data.locations.find((l: any) => l.name === 'webgrip-domains');
  expect(domains.targets[0]).toMatchObject({
    followed: false,
    reason: 'domains/operations-domain.yaml is not a document of this import (never fetched)',
  });
  expect((await importing(documents('webgrip', WEBGRIP))).body.data).toMatchObject({
    created: 0,
    updated: 0,
  });
});

it('keeps one name in two namespaces apart, by path and by filter', async () => {
  const a = await svc.post('/services', { name: 'cart' });
  const b = await svc.post('/services', { name: 'cart', namespace: 'shop' });
  expect([a.status, b.status]).toEqual([201, 201]);
  expect((await svc.post('/services', { name: 'CART', namespace: 'Shop' })).status).toBe(409);
  expect((await svc.get('/services/cart')).body.data.id).toBe(a.body.data.id);
  expect((await svc.get('/services/shop%2Fcart')).body.data.id).toBe(b.body.data.id);
  expect((await svc.get('/services/default%2Fcart')).body.data.id).toBe(a.body.data.id);
  expect((await svc.get('/services?namespace=shop')).body.data.map((s: any) => s.id)).toEqual([
    b.body.data.id,
  ]);
  expect((await svc.get('/services/nowhere%2Fcart')).status).toBe(404);
  const bad = await svc.post('/services', { name: 'x', namespace: 'no space' });
  expect(bad.status).toBe(400);
});

it("stores Backstage's sample Template whole and lists it; domains have their own routes", async () => {
  await svc.post('/owners', { name: 'techdocs-core', namespace: 'backstage' });
  const res = await importing(
    documents('backstage-examples', ['templates/pull-request-template.yaml']),
  );
  expect(res.status).toBe(200);
  expect(res.body.data.ignored).toEqual([]);
  const list = (await svc.get('/templates')).body.data;
  expect(list).toEqual([
    expect.objectContaining({
      namespace: 'default',
      name: 'pull-request',
      title: 'Pull Request Action template',
      type: 'service',
      owner: 'backstage/techdocs-core',
    }),
  ]);
  expect(list[0].descriptor).toBeUndefined();
  const one = (await svc.get('/templates/pull-request')).body.data;
  expect(one.descriptor.spec.steps.map((s: any) => s.action)).toEqual([
    'fetch:cookiecutter',
    'fetch:plain',
    'publish:github:pull-request',
  ]);
  expect((await svc.get('/templates?type=website')).body.data).toEqual([]);

  const domain = await svc.post('/domains', {
    name: 'payments',
    namespace: 'shop',
    owner: 'backstage/techdocs-core',
  });
  expect(domain.status).toBe(201);
  expect(domain.body.data).toMatchObject({
    namespace: 'shop',
    owner: 'backstage/techdocs-core',
    links: [],
  });
  expect((await svc.post('/domains', { name: 'Payments', namespace: 'shop' })).status).toBe(409);
  expect((await svc.post('/domains', { name: 'x', owner: 'nobody' })).body.error.message).toBe(
    'Unknown owner: nobody',
  );
  const system = await svc.post('/systems', { name: 'checkout', domain: 'shop/payments' });
  expect(system.body.data).toMatchObject({ domain: 'shop/payments' });
  expect((await svc.get('/systems?domain=shop%2Fpayments')).body.data).toHaveLength(1);
  const refused = await svc.del('/domains/shop%2Fpayments');
  expect(refused.status).toBe(409);
  expect(refused.body.error.message).toBe('Domain payments still has systems: checkout');
  const changed = await svc.put('/domains/shop%2Fpayments', {
    title: 'Payments',
    links: [{ url: 'https://x.test' }],
  });
  expect(changed.body.data).toMatchObject({ title: 'Payments', systems: [{ name: 'checkout' }] });
  await svc.put('/systems/checkout', { domain: null });
  expect((await svc.del('/domains/shop%2Fpayments')).status).toBe(200);
  expect((await svc.get('/domains')).body.data).toEqual([]);
});

it("a group's members and a user's memberOf are one relation, and an import refuses a child claimed twice", async () => {
  await svc.post('/owners', { name: 'ann', kind: 'user' });
  await svc.post('/owners', { name: 'core', namespace: 'eng' });
  const group = (name: string, spec: object) => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Group',
    metadata: { name, namespace: 'eng' },
    spec: { type: 'team', ...spec },
  });
  const ok = await importing([group('web', { members: ['default/ann'], children: ['core'] })]);
  expect(ok.status).toBe(200);
  expect((await svc.get('/owners/ann')).body.data.memberOf).toEqual([
    expect.objectContaining({ name: 'eng/web' }),
  ]);
  expect((await svc.get('/owners/eng%2Fweb')).body.data).toMatchObject({
    users: [{ name: 'ann' }],
    children: [{ name: 'eng/core' }],
  });
  const twice = await importing([
    group('a', { children: ['core'] }),
    group('b', { children: ['group:eng/core'] }),
  ]);
  expect(twice.status).toBe(400);
  expect(twice.body.error.message).toContain(
    'Group eng/b: spec.children[0] group:eng/core is also a child of Group eng/a',
  );
  expect((await svc.get('/owners/eng%2Fa')).status).toBe(404);
});
