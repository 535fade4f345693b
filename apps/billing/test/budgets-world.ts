import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authSettings, buildServiceApp, type App, type Identity } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import { communication } from '@platform/communication';
import { ledger } from '@platform/ledger';
import { AUTH_ENV, CALLERS, jsonApiAs, servicesUnderTest, type Json } from '@platform/testing';
import type { BillingDatabase } from '../src/database';
import { billing } from '../src/index';

// Billing with communication and the ledger in one app on one database (libs/testing's
// servicesUnderTest), authentication on: billing's platform client reaches them in-process, as in
// the gateway. A real local HTTP server is the target of the webhook channels. Billing's periodic
// jobs are off: the tests evaluate through POST /budgets/evaluate, or start instances of their own.

const SERVICES = [billing, communication, ledger];

export const WORLD_ENV: Record<string, string> = {
  ...AUTH_ENV,
  COMMUNICATION_ALLOW_PRIVATE_TARGETS: 'true',
  BILLING_BUDGET_INTERVAL_MS: '0',
  BILLING_ANOMALY_INTERVAL_MS: '0',
  // An alert that failed is tried again at the next run (no backoff), so tests need not wait.
  BILLING_ALERT_RETRY_MS: '0',
};

export interface Received {
  headers: IncomingHttpHeaders;
  body: Json;
}

/** A webhook receiver: every POST kept, answered 200 with an id. */
async function webhookReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `msg-${received.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type BudgetWorld = Awaited<ReturnType<typeof budgetWorld>>;

export async function budgetWorld() {
  const hook = await webhookReceiver();
  const world = await servicesUnderTest(SERVICES, { env: WORLD_ENV });
  const apps: App[] = [];
  const api = (app: App, prefix: string) => (identity: Identity | undefined) =>
    jsonApiAs(app, prefix, identity);
  const { admin } = CALLERS;
  const db = () => world.db.schema<BillingDatabase>(billing.name);

  /**
   * A webhook channel to the local receiver, made by an admin, who registers the app billing on it
   * (unless `register` is false): members may then point budgets at it.
   */
  async function channel(name: string, register = true) {
    const comm = jsonApiAs(world.app, communication.prefix, admin);
    const res = await comm.post('/channels', {
      name,
      provider: 'webhook',
      config: { url: hook.url, secret: 'the webhook secret of the budget tests' },
    });
    expect(res.status).toBe(201);
    if (register)
      expect(
        (await comm.post('/apps/billing/channels', { channelId: res.body.data.id })).status,
      ).toBe(201);
    return res.body.data;
  }

  /**
   * Another billing instance on the same database (another process, or this one restarted), with
   * the others reached through the world's app; `env` adds to the world's (its jobs poll when
   * `jobs` is given).
   */
  async function instance(
    env: Record<string, string> = {},
    jobs: { pollMs: number } | false = false,
  ) {
    const all = { ...WORLD_ENV, ...env };
    const app = await buildServiceApp(billing, {
      database: world.db,
      config: billing.config(all),
      jobs,
      auth: authSettings(all),
      platform: { app: () => world.app },
    });
    apps.push(app);
    return app;
  }

  return {
    world,
    hook,
    channel,
    instance,
    billing: api(world.app, billing.prefix),
    comm: api(world.app, communication.prefix),
    ledger: api(world.app, ledger.prefix),
    /** Billing's tables, for what a test arranges or checks underneath the API. */
    db: db(),
    /**
     * `count` anomaly alerts (of one open anomaly, made a day ago) to a channel that does not
     * exist: each attempt fails fast. The anomaly's id.
     */
    async stuckAlerts(count: number) {
      const anomaly = {
        id: 'stuck0000001',
        scope: 'provider' as const,
        key: 'stuck',
        day: dayBefore(1),
      };
      const figures = { expected: 100, actual: 900, size: 800, score: null, mad: 0 };
      await db()
        .insertInto('anomalies')
        .values({ ...anomaly, ...figures, recorded_at: new Date() } as const)
        .execute();
      const alerts = Array.from({ length: count }, (_, i) => ({
        ...{ id: `stuck${String(i).padStart(7, '0')}`, key: `stuck:${i}`, channel: 'ch_gone' },
        ...{ anomaly_id: anomaly.id, subject: 'stuck', text: 'stuck', details: {} },
        created_at: new Date(Date.now() - 86_400_000),
      }));
      await db()
        .insertInto('alerts')
        .values(alerts.map((a) => ({ ...a, details: jsonb({}) })))
        .execute();
      return anomaly.id;
    },
    /** A pending alert of a budget's period long over (February 2020), to a channel that is gone. */
    async staleBudgetAlert(id: string, budgetId: string) {
      await db()
        .insertInto('alerts')
        .values({
          ...{ id, key: `budget:${budgetId}:2020-02:80:actual`, budget_id: budgetId },
          ...{ period: '2020-02', threshold: 80, basis: 'actual', channel: 'ch_gone' },
          ...{ subject: 'stale', text: 'stale', details: jsonb({ alertId: id }) },
          expires_at: new Date('2020-03-02T00:00:00Z'),
        })
        .execute();
    },
    /** An alert's row, with `wait`: the seconds until its retry time. */
    alert: (id: string) =>
      db()
        .selectFrom('alerts')
        .selectAll()
        .select(sql<number>`extract(epoch from locked_until - now())`.as('wait'))
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    /** Ledger events of an action, oldest first. */
    async events(action: string) {
      const res = await jsonApiAs(world.app, ledger.prefix, admin).get(`/events?action=${action}`);
      expect(res.status).toBe(200);
      return (res.body.data as Json[]).sort((a, b) => a.seq - b.seq);
    },
    async close() {
      for (const app of apps) await app.close();
      await world.close();
      await hook.close();
    },
  };
}

/** Today (UTC) as YYYY-MM-DD, and `days` before it. */
export const dayBefore = (days: number, now = new Date()) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - days))
    .toISOString()
    .slice(0, 10);
