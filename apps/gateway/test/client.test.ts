import {
  ConnectionError,
  PlatformError,
  createClient,
  httpTransport,
  injectTransport,
  type DataOf,
} from '@platform/client';
import { deadUrl, listen, useService } from '@platform/testing';
import { gatewayUnderTest } from './helpers';

// Checked by the typecheck: answers are typed after their operation, 202s included.
type Is<T, Shape> = T extends Shape ? true : false;
export const typedAnswers: [
  Is<DataOf<'billing.startSync'>, { id: string; status: string }>,
  Is<DataOf<'pulse.trackEvent'>, { id: string; name: string }>,
] = [true, true];

// Ledger's periodic retention job off: it could anonymize the event between the test's creation of
// a policy and its own apply (as it did in ledger's retention tests on PostgreSQL in CI).
const gw = useService(() => gatewayUnderTest({ LEDGER_RETENTION_INTERVAL_MS: '0' }));

describe.each([
  ['over HTTP', async () => httpTransport(await listen(gw.app))],
  ['in-process', async () => injectTransport(gw.app)],
])('the typed client %s', (_how, makeTransport) => {
  it('tracks, lists and reports events', async () => {
    const client = createClient(await makeTransport());
    const event = await client.pulse.trackEvent({
      body: { name: 'signup', userId: 'u1', properties: { plan: 'pro' } },
    });
    expect(event).toMatchObject({ name: 'signup', userId: 'u1', properties: { plan: 'pro' } });
    expect(
      await client.pulse.trackEvents({
        body: { events: [{ name: 'view' }, { name: 'view', id: event.id }] },
      }),
    ).toEqual({ ingested: 1, duplicates: 1 });
    expect((await client.pulse.listEvents({ query: { userId: 'u1' } })).map((e) => e.id)).toEqual([
      event.id,
    ]);
    expect(await client.pulse.getEvent({ path: { id: event.id } })).toEqual(event);
    expect(await client.pulse.topEvents({ query: { limit: 1 } })).toEqual([
      { name: 'signup', count: 1 },
    ]);
    expect((await client.gateway.health()).status).toBe('ok');
  });

  it('records and verifies audit events, and manages policies and classifications', async () => {
    const { ledger } = createClient(await makeTransport());
    const old = await ledger.createEvent({
      body: { action: 'user.login', actor: 'ann', timestamp: '2020-01-01T00:00:00.000Z' },
    });
    const recent = await ledger.createEvent({ body: { action: 'user.logout', actor: 'ann' } });
    expect(recent).toMatchObject({ seq: old.seq + 1, prevHash: old.hash });
    expect(
      (await ledger.listEvents({ query: { actor: 'ann', limit: 1 } })).map((e) => e.id),
    ).toEqual([recent.id]);
    expect(await ledger.getEvent({ path: { id: old.id } })).toEqual(old);

    const policy = await ledger.createPolicy({
      body: { name: 'Year', retentionDays: 365, action: 'anonymize' },
    });
    expect(await ledger.getPolicy({ path: { idOrName: 'year' } })).toEqual(policy);
    expect(await ledger.applyPolicy({ path: { idOrName: policy.id } })).toMatchObject({
      anonymized: 1,
      deleted: 0,
    });
    expect((await ledger.getEvent({ path: { id: old.id } })).anonymized).toBe(true);
    expect(await ledger.verifyEvents()).toMatchObject({ valid: true, checked: 2 });
    expect(
      (await ledger.listPolicies({ query: { action: 'anonymize' } })).map((p) => p.name),
    ).toEqual(['Year']);
    expect((await ledger.deletePolicy({ path: { idOrName: 'Year' } })).id).toBe(policy.id);

    const c = await ledger.createClassification({
      body: { service: 'billing', field: 'card.number', level: 'restricted', justification: 'PCI' },
    });
    expect(await ledger.listClassifications({ query: { service: 'billing' } })).toEqual([c]);
    expect(await ledger.getClassification({ path: { id: c.id } })).toEqual(c);
    await expect(
      ledger.createClassification({
        body: { serviceId: 'billing', field: 'card.number', level: 'pii', justification: 'x' },
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', status: 409 });
    expect((await ledger.deleteClassification({ path: { id: c.id } })).id).toBe(c.id);
  });

  it('manages the catalog and walks its dependency graph', async () => {
    const { catalog } = createClient(await makeTransport());
    await catalog.createSystem({ body: { name: 'Shop', description: 'Selling' } });
    await catalog.createOwner({ body: { name: 'ann', email: 'ann@example.com', team: 'web' } });
    const web = await catalog.createService({
      body: { name: 'web', system: 'shop', owner: 'ann', tags: ['http'] },
    });
    const api = await catalog.createService({ body: { name: 'api' } });
    expect(
      await catalog.addDependency({ path: { idOrName: 'web' }, body: { dependsOn: 'api' } }),
    ).toEqual([api.id]);
    expect(
      await catalog.getDependencyGraph({ path: { idOrName: 'api' }, query: { direction: 'up' } }),
    ).toMatchObject({
      root: { id: api.id, name: 'api' },
      nodes: [
        { id: api.id, depth: 0 },
        { id: web.id, depth: 1 },
      ],
      edges: [{ from: web.id, to: api.id }],
    });
    expect(
      (await catalog.search({ query: { q: 'we', kind: 'service' } })).map((h) => h.name),
    ).toEqual(['web']);
    expect((await catalog.getSystem({ path: { idOrName: 'Shop' } })).services).toEqual([
      { id: web.id, name: 'web' },
    ]);
    expect((await catalog.listServices({ query: { tag: 'http' } })).map((s) => s.id)).toEqual([
      web.id,
    ]);
    expect(
      (await catalog.updateService({ path: { idOrName: 'web' }, body: { dependencies: [] } }))
        .dependencies,
    ).toEqual([]);
    await expect(catalog.deleteOwner({ path: { idOrName: 'ann' } })).rejects.toMatchObject({
      code: 'CONFLICT',
      status: 409,
    });
    expect((await catalog.deleteService({ path: { idOrName: 'web' } })).id).toBe(web.id);
    expect((await catalog.deleteOwner({ path: { idOrName: 'ann' } })).name).toBe('ann');
  });

  it('manages design tokens and components, and exports them', async () => {
    const { palette } = createClient(await makeTransport());
    const ink = await palette.createToken({
      body: { name: 'ink', category: 'color', value: '#000', dark: '#fff' },
    });
    await palette.createToken({
      body: { name: 'paper', category: 'color', value: { default: '#fff', dark: '#000' } },
    });
    const button = await palette.createComponent({ body: { name: 'Button', tokens: ['ink'] } });
    expect(
      (await palette.addComponentProp({ path: { idOrName: 'button' }, body: { name: 'size' } }))
        .props[0],
    ).toMatchObject({
      name: 'size',
      type: 'string',
    });
    expect(
      (await palette.getComponent({ path: { idOrName: button.id } })).resolved.tokens.map(
        (t) => t.id,
      ),
    ).toEqual([ink.id]);
    expect((await palette.getToken({ path: { idOrName: 'ink' } })).usage.components).toEqual([
      { id: button.id, name: 'Button' },
    ]);
    expect(
      (await palette.tokenContrast({ query: { foreground: 'ink', background: 'paper' } })).light
        .ratio,
    ).toBe(21);
    expect((await palette.export({ query: { format: 'css' } })).output).toContain('--ink: #000;');
    await palette.createPattern({ body: { name: 'Form', components: ['Button'] } });
    expect(
      await palette.addPatternStep({
        path: { idOrName: 'form' },
        body: { title: 'Submit', component: 'button' },
      }),
    ).toMatchObject({
      steps: [{ title: 'Submit' }],
    });
    expect((await palette.search({ query: { q: 'butt' } })).results[0]).toMatchObject({
      kind: 'component',
      name: 'Button',
    });
    await expect(palette.deleteToken({ path: { idOrName: 'ink' } })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('records spending and reports it', async () => {
    const { billing } = createClient(await makeTransport());
    const item = await billing.createItem({
      body: {
        name: 'GPU',
        amount: 1250,
        provider: 'openai',
        providerRef: 'c1',
        date: '2026-01-05',
      },
    });
    await billing.createItem({ body: { name: 'Disk', amount: 250, date: '2026-01-20' } });
    expect(
      await billing.getItemByProviderRef({ query: { provider: 'openai', providerRef: 'c1' } }),
    ).toEqual(item);
    expect(
      await billing.reportSummary({ query: { from: '2026-01-01', to: '2026-01-31' } }),
    ).toMatchObject({
      totalAmount: 1500,
      itemCount: 2,
    });
    expect(
      (await billing.reportBreakdown({ query: { by: 'provider' } })).map((r) => r.key),
    ).toEqual(['openai', '(none)']);
    expect(await billing.reportTrend({ query: { interval: 'month' } })).toEqual([
      { date: '2026-01', amount: 1500, count: 2 },
    ]);
    await expect(billing.createItem({ body: { name: 'x', amount: 1.5 } })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(
      (await billing.updateItem({ path: { id: item.id }, body: { amount: 1300 } })).amount,
    ).toBe(1300);
  });

  it('throws the envelope error with its code and status', async () => {
    const client = createClient(await makeTransport());
    const error = await client.pulse.getEvent({ path: { id: 'missing' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
      message: 'Event not found: missing',
    });
    await expect(client.pulse.trackEvent({ body: { name: '' } })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });
});

it('says when the gateway cannot be reached', async () => {
  const client = createClient(httpTransport(await deadUrl()));
  await expect(client.gateway.health()).rejects.toBeInstanceOf(ConnectionError);
});
