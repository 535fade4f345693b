import { billing } from '@platform/billing';
import { communication } from '@platform/communication';
import { git } from '@platform/git';
import { ledger } from '@platform/ledger';
import { pulse } from '@platform/pulse';
import {
  AUTH_ENV,
  CALLERS,
  eventually,
  jsonApiAs,
  keyCaller,
  servicesUnderTest,
  useService,
  type Json,
} from '@platform/testing';
import type { Identity, ServiceManifest } from '@platform/core';
import { catalog } from '../src/index';

// The overview of a catalog service (issue 39, item 6) with every source on: the catalog, git,
// the ledger, pulse, billing and communication (budget alerts' channel) in one app on one
// database, each calling the others in-process as in the gateway, authentication on. One fixture
// for the file; the tests read what beforeAll made, and the last ones switch billing off and on.

const SERVICES = [catalog, git, ledger, pulse, billing, communication];
const world = useService(
  () =>
    servicesUnderTest(SERVICES, {
      env: {
        ...AUTH_ENV,
        DATA_DIR: 'memory://',
        // Anomalies: the 3 days before a day are its window; checked every half second.
        BILLING_ANOMALY_INTERVAL_MS: '500',
        BILLING_ANOMALY_WINDOW_DAYS: '3',
        BILLING_ANOMALY_MIN_DAYS: '3',
        CATALOG_SCORECARD_INTERVAL_MS: '0',
      },
      jobs: { pollMs: 100 },
    }),
  { scope: 'all', timeout: 60_000 },
);
const as = (identity: Identity, service: ServiceManifest = catalog) =>
  jsonApiAs(world.app, service.prefix, identity);
const admin = (service: ServiceManifest = catalog) => as(CALLERS.admin, service);

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const today = day(0);
const firstOfMonth = `${today.slice(0, 8)}01`;
const lastMonth = new Date(Date.UTC(+today.slice(0, 4), +today.slice(5, 7) - 2, 1));
const firstOfLastMonth = lastMonth.toISOString().slice(0, 10);
/** Spend of checkout, cents by day: this month, the month before, and a spike yesterday. */
const SPEND = [today, firstOfLastMonth, day(-4), day(-3), day(-2), day(-1)].map(
  (date, i) => [date, [1500, 1000, 100, 110, 90, 5000][i]] as const,
);
/** By hand: this month is its 1st to today; the month before its 1st to the same day (or its last). */
const sameDayLastMonth = (() => {
  const last = new Date(Date.UTC(lastMonth.getUTCFullYear(), lastMonth.getUTCMonth() + 1, 0));
  return `${firstOfLastMonth.slice(0, 8)}${String(Math.min(+today.slice(8), last.getUTCDate())).padStart(2, '0')}`;
})();
const within = (from: string, to: string) =>
  SPEND.filter(([d]) => d >= from && d <= to).reduce((sum, [, cents]) => sum + cents, 0);

let checkout: Json;
const made = async (res: Promise<{ status: number; body: Json }>) => {
  const { status, body } = await res;
  if (status >= 300) throw new Error(`setup: ${status} ${JSON.stringify(body)}`);
  return body.data;
};

beforeAll(async () => {
  const cat = admin();
  await made(cat.post('/owners', { name: 'payments', members: ['owner@example.com'] }));
  await made(cat.post('/services', { name: 'cart' }));
  checkout = await made(
    cat.post('/services', {
      name: 'checkout',
      owner: 'payments',
      lifecycle: 'production',
      annotations: { 'github.com/project-slug': 'acme/checkout' },
      links: [{ url: 'https://docs.example.com/checkout', type: 'docs' }],
    }),
  );
  await made(cat.post('/services', { name: 'web' }));
  await made(cat.post('/services/checkout/dependencies', { dependsOn: 'cart' }));
  await made(cat.post('/services/web/dependencies', { dependsOn: 'checkout' }));

  const repos = admin(git);
  await made(repos.post('/providers', { name: 'local', type: 'local' }));
  const repo = await made(
    repos.post('/repos', { providerId: 'local', owner: 'acme', repoName: 'checkout' }),
  );
  await made(
    repos.post(`/repos/${repo.id}/commits`, {
      branch: 'main',
      message: 'Initial\n\nbody',
      files: [{ path: 'README.md', content: 'hi' }],
    }),
  );

  for (const [action, resource] of [
    ['checkout.deployed', checkout.id],
    ['other.thing', 'x'],
  ])
    await made(admin(ledger).post('/events', { action, resource, service: 'deploys' }));

  const event = (name: string, service: string) => ({ name, properties: { service } });
  await made(
    admin(pulse).post('/events/batch', {
      events: [
        event('checkout.viewed', 'checkout'),
        event('checkout.viewed', 'checkout'),
        event('order.paid', 'checkout'),
        event('checkout.viewed', 'cart'),
      ],
    }),
  );

  await made(
    admin(communication).post('/channels', { name: 'alerts', provider: 'log', config: {} }),
  );
  const books = admin(billing);
  for (const [date, amount] of SPEND) {
    const item = { name: `cloud ${date}`, amount, date, service: 'checkout', provider: 'aws' };
    await made(books.post('/items', item));
  }
  await made(books.post('/catalog-snapshot/refresh'));
  await made(
    books.post('/budgets', {
      name: 'checkout-monthly',
      amount: 1000,
      period: 'month',
      filter: { service: 'checkout' },
      channel: 'alerts',
    }),
  );
  await eventually(
    async () => (await made(books.get('/anomalies?service=checkout&status=open'))).length === 1,
    { timeout: 10_000, what: 'the anomaly of yesterday' },
  );
}, 60_000);

const overview = async (identity: Identity = CALLERS.admin) => {
  const res = await as(identity).get('/services/checkout/overview');
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('the overview of a catalog service', () => {
  it('puts together what every service knows of it', async () => {
    const o = await overview();
    expect(o.service).toMatchObject({ id: checkout.id, name: 'checkout', owner: 'payments' });
    expect(o.owner).toMatchObject({ name: 'payments', kind: 'group', members: 1 });
    expect(o.dependencies).toEqual({
      dependsOn: [{ id: expect.any(String), name: 'cart' }],
      usedBy: [{ id: expect.any(String), name: 'web' }],
    });
    const month = within(firstOfMonth, today);
    const previous = within(firstOfLastMonth, sameDayLastMonth);
    expect(o.spend).toEqual({
      available: true,
      month,
      previous,
      trend: Math.round(((month - previous) / previous) * 1000) / 10,
      currency: 'USD',
      period: { from: firstOfMonth, to: today },
      previousPeriod: { from: firstOfLastMonth, to: sameDayLastMonth },
    });
    expect(o.budgets).toMatchObject({
      available: true,
      items: [{ name: 'checkout-monthly', amount: 1000, status: 'over' }],
    });
    expect(o.anomalies).toMatchObject({
      available: true,
      items: [{ day: day(-1), provider: null, actual: 5000, expected: 100, status: 'open' }],
    });
    expect(o.repositories).toMatchObject({
      available: true,
      items: [
        {
          fullName: 'acme/checkout',
          source: 'github.com/project-slug',
          connected: true,
          defaultBranch: 'main',
          lastCommit: { message: 'Initial' },
        },
      ],
    });
    expect(o.audit.available).toBe(true);
    expect(o.audit.items.map((e: Json) => e.action)).toContain('checkout.deployed');
    expect(o.audit.items.map((e: Json) => e.action)).not.toContain('other.thing');
    expect(o.usage).toMatchObject({
      available: true,
      property: 'service',
      total: 3,
      events: [
        { name: 'checkout.viewed', count: 2 },
        { name: 'order.paid', count: 1 },
      ],
    });
  });

  it('shows a caller only what it may read directly', async () => {
    // A member: the audit trail is the admins'.
    const member = await overview(CALLERS.owner);
    expect(member.audit).toEqual({
      available: false,
      reason: 'owner@example.com may not read ledger.event: it needs the role admin',
    });
    for (const part of ['spend', 'budgets', 'anomalies', 'repositories', 'usage'])
      expect(member[part].available).toBe(true);
    // A key that may read the catalog only.
    const key = await overview(keyCaller(['catalog:read'], { name: 'reader' }));
    expect(key.spend.reason).toBe(
      'key:reader may not read billing.report: it needs the scope billing:read',
    );
    expect(key.repositories.reason).toMatch(/needs the scope git:read$/);
    expect(key.usage.reason).toMatch(/needs the scope pulse:read$/);
    expect(key.audit.reason).toMatch(/needs the scope admin$/);
  });

  it('scores the service on what the other services say', async () => {
    const card = await made(
      admin().post('/scorecards', {
        name: 'Operations',
        rules: [
          { id: 'repo', kind: 'hasRepository' },
          { id: 'docs', kind: 'hasDocs' },
          { id: 'budget', kind: 'withinBudget' },
          { id: 'calm', kind: 'noOpenAnomaly' },
        ],
        levels: [
          { name: 'basic', rules: ['repo', 'docs'] },
          { name: 'tidy', rules: ['budget', 'calm'] },
        ],
      }),
    );
    const mine = async () => (await overview()).scorecards;
    await eventually(async () => expect(await mine()).toHaveLength(1));
    const [result] = await mine();
    expect(result).toMatchObject({
      scorecard: { id: card.id, name: 'Operations' },
      level: 'basic',
      passed: 2,
      total: 4,
    });
    const why = Object.fromEntries(result.rules.map((r: Json) => [r.rule, [r.status, r.why]]));
    expect(why.repo).toEqual(['pass', 'connected in git: acme/checkout']);
    const spent = (within(firstOfMonth, today) / 100).toFixed(2);
    expect(why.budget).toEqual(['fail', `budget checkout-monthly is over: ${spent} of 10.00`]);
    expect(why.calm[0]).toBe('fail');
    expect(why.calm[1]).toMatch(
      /^1 open anomaly, e\.g\. \S+ \(all providers\): 50\.00 where 1\.00 was expected$/,
    );

    // Changed: evaluated again alone, asking billing for this service only; the same answer.
    expect((await admin().put('/services/checkout', { description: 'Pays' })).status).toBe(200);
    await eventually(async () =>
      expect(Date.parse((await mine())[0].evaluatedAt)).toBeGreaterThan(
        Date.parse(result.evaluatedAt),
      ),
    );
    const again = (await mine())[0].rules.find((r: Json) => r.rule === 'budget');
    expect([again.status, again.why]).toEqual(why.budget);

    // Evaluated as the catalog: a caller that may not read billing or git sees no figures.
    const reader = await overview(keyCaller(['catalog:read'], { name: 'reader' }));
    const shown = reader.scorecards[0].rules.map((r: Json) => r.why.replace(/ it needs .*/, ''));
    const hidden = (what: string) => `Not shown: key:reader may not read ${what}:`;
    expect(shown).toEqual([
      hidden('git.repository'),
      why.docs[1],
      hidden('billing.budget'),
      hidden('billing.anomaly'),
    ]);
  });

  it('answers 200 with billing off, its parts unavailable and saying why', async () => {
    world.setEnabled('billing', false);
    try {
      const o = await overview();
      for (const part of ['spend', 'budgets', 'anomalies']) {
        expect(o[part].available).toBe(false);
        expect(o[part].reason).toMatch(
          /^The billing service is off: Route GET \/api\/v1\/billing\/\S+ not found$/,
        );
      }
      for (const part of ['repositories', 'audit', 'usage']) expect(o[part].available).toBe(true);
      expect(o.owner.name).toBe('payments');
    } finally {
      world.setEnabled('billing', true);
    }
    expect((await overview()).spend.available).toBe(true);
  });

  it('does not wait for a part longer than CATALOG_OVERVIEW_TIMEOUT_MS (2 s)', async () => {
    world.setDelay('pulse', 2500);
    try {
      const o = await overview();
      expect(o.usage).toEqual({
        available: false,
        reason: 'The pulse service did not answer within 2000 ms',
      });
      expect(o.service.name).toBe('checkout');
    } finally {
      world.setDelay('pulse', 0);
    }
  });

  it('is 404 for a service that does not exist, and 401 without credentials', async () => {
    const missing = await admin().get('/services/nope/overview');
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Service not found: nope');
    const anonymous = await world.app.inject({
      url: `${catalog.prefix}/services/checkout/overview`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
