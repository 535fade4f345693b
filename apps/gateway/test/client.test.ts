import {
  ConnectionError,
  PlatformError,
  createClient,
  httpTransport,
  injectTransport,
} from '@platform/client';
import { deadUrl, listen } from '@platform/testing';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

let gw: GatewayUnderTest;
beforeEach(async () => {
  gw = await gatewayUnderTest();
});
afterEach(() => gw.close());

describe.each([
  ['over HTTP', async () => httpTransport(await listen(gw.app))],
  ['in-process', async () => injectTransport(gw.app)],
])('the typed client %s', (_how, makeTransport) => {
  it('tracks, lists and reports events', async () => {
    const client = createClient(await makeTransport());
    const event = await client.pulse.track({
      name: 'signup',
      userId: 'u1',
      properties: { plan: 'pro' },
    });
    expect(event).toMatchObject({ name: 'signup', userId: 'u1', properties: { plan: 'pro' } });
    expect(
      await client.pulse.trackBatch([{ name: 'view' }, { name: 'view', id: event.id }]),
    ).toEqual({ ingested: 1, duplicates: 1 });
    expect((await client.pulse.listEvents({ userId: 'u1' })).map((e) => e.id)).toEqual([event.id]);
    expect(await client.pulse.getEvent(event.id)).toEqual(event);
    expect(await client.pulse.topEvents({ limit: 1 })).toEqual([{ name: 'signup', count: 1 }]);
    expect((await client.gateway.health()).status).toBe('ok');
  });

  it('records and verifies audit events, and manages policies and classifications', async () => {
    const { ledger } = createClient(await makeTransport());
    const old = await ledger.record({
      action: 'user.login',
      actor: 'ann',
      timestamp: '2020-01-01T00:00:00.000Z',
    });
    const recent = await ledger.record({ action: 'user.logout', actor: 'ann' });
    expect(recent).toMatchObject({ seq: old.seq + 1, prevHash: old.hash });
    expect((await ledger.listEvents({ actor: 'ann', limit: 1 })).map((e) => e.id)).toEqual([
      recent.id,
    ]);
    expect(await ledger.getEvent(old.id)).toEqual(old);

    const policy = await ledger.createPolicy({
      name: 'Year',
      retentionDays: 365,
      action: 'anonymize',
    });
    expect(await ledger.getPolicy('year')).toEqual(policy);
    expect(await ledger.applyPolicy(policy.id)).toMatchObject({ anonymized: 1, deleted: 0 });
    expect((await ledger.getEvent(old.id)).anonymized).toBe(true);
    expect(await ledger.verify()).toMatchObject({ valid: true, checked: 2 });
    expect((await ledger.listPolicies({ action: 'anonymize' })).map((p) => p.name)).toEqual([
      'Year',
    ]);
    expect((await ledger.deletePolicy('Year')).id).toBe(policy.id);

    const c = await ledger.classify({
      service: 'billing',
      field: 'card.number',
      level: 'restricted',
      justification: 'PCI',
    });
    expect(await ledger.listClassifications({ service: 'billing' })).toEqual([c]);
    expect(await ledger.getClassification(c.id)).toEqual(c);
    await expect(
      ledger.classify({
        serviceId: 'billing',
        field: 'card.number',
        level: 'pii',
        justification: 'x',
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', status: 409 });
    expect((await ledger.deleteClassification(c.id)).id).toBe(c.id);
  });

  it('manages the catalog and walks its dependency graph', async () => {
    const { catalog } = createClient(await makeTransport());
    await catalog.createSystem({ name: 'Shop', description: 'Selling' });
    await catalog.createOwner({ name: 'ann', email: 'ann@example.com', team: 'web' });
    const web = await catalog.createService({
      name: 'web',
      system: 'shop',
      owner: 'ann',
      tags: ['http'],
    });
    const api = await catalog.createService({ name: 'api' });
    expect(await catalog.addDependency('web', 'api')).toEqual([api.id]);
    expect(await catalog.dependencies('api', { direction: 'up' })).toMatchObject({
      root: { id: api.id, name: 'api' },
      nodes: [
        { id: api.id, depth: 0 },
        { id: web.id, depth: 1 },
      ],
      edges: [{ from: web.id, to: api.id }],
    });
    expect((await catalog.search('we')).map((h) => h.name)).toEqual(['web']);
    expect((await catalog.getSystem('Shop')).services).toEqual([{ id: web.id, name: 'web' }]);
    expect((await catalog.listServices({ tag: 'http' })).map((s) => s.id)).toEqual([web.id]);
    expect((await catalog.updateService('web', { dependencies: [] })).dependencies).toEqual([]);
    await expect(catalog.deleteOwner('ann')).rejects.toMatchObject({
      code: 'CONFLICT',
      status: 409,
    });
    expect((await catalog.deleteService('web')).id).toBe(web.id);
    expect((await catalog.deleteOwner('ann')).name).toBe('ann');
  });

  it('manages design tokens and components, and exports them', async () => {
    const { palette } = createClient(await makeTransport());
    const ink = await palette.createToken({
      name: 'ink',
      category: 'color',
      value: '#000',
      dark: '#fff',
    });
    await palette.createToken({
      name: 'paper',
      category: 'color',
      value: { default: '#fff', dark: '#000' },
    });
    const button = await palette.createComponent({ name: 'Button', tokens: ['ink'] });
    expect((await palette.addProp('button', { name: 'size' })).props[0]).toMatchObject({
      name: 'size',
      type: 'string',
    });
    expect((await palette.getComponent(button.id)).resolved.tokens.map((t) => t.id)).toEqual([
      ink.id,
    ]);
    expect((await palette.getToken('ink')).usage.components).toEqual([
      { id: button.id, name: 'Button' },
    ]);
    expect((await palette.contrast('ink', 'paper')).light.ratio).toBe(21);
    expect((await palette.export('css')).output).toContain('--ink: #000;');
    await palette.create('patterns', { name: 'Form', components: ['Button'] });
    expect(await palette.addStep('form', { title: 'Submit', component: 'button' })).toMatchObject({
      steps: [{ title: 'Submit' }],
    });
    expect((await palette.search('butt')).results[0]).toMatchObject({
      kind: 'component',
      name: 'Button',
    });
    await expect(palette.deleteToken('ink')).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('records spending and reports it', async () => {
    const { billing } = createClient(await makeTransport());
    const item = await billing.createItem({
      name: 'GPU',
      amount: 1250,
      provider: 'openai',
      providerRef: 'c1',
      date: '2026-01-05',
    });
    await billing.createItem({ name: 'Disk', amount: 250, date: '2026-01-20' });
    expect(await billing.itemByProviderRef('openai', 'c1')).toEqual(item);
    expect(await billing.summary({ from: '2026-01-01', to: '2026-01-31' })).toMatchObject({
      totalAmount: 1500,
      itemCount: 2,
    });
    expect((await billing.breakdown('provider')).map((r) => r.key)).toEqual(['openai', '(none)']);
    expect(await billing.trend('month')).toEqual([{ date: '2026-01', amount: 1500, count: 2 }]);
    await expect(billing.createItem({ name: 'x', amount: 1.5 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect((await billing.updateItem(item.id, { amount: 1300 })).amount).toBe(1300);
  });

  it('throws the envelope error with its code and status', async () => {
    const client = createClient(await makeTransport());
    const error = await client.pulse.getEvent('missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
      message: 'Event not found: missing',
    });
    await expect(client.pulse.track({ name: '' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});

it('says when the gateway cannot be reached', async () => {
  const client = createClient(httpTransport(await deadUrl()));
  await expect(client.gateway.health()).rejects.toBeInstanceOf(ConnectionError);
});
