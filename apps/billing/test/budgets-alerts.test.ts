import { CALLERS, eventually, jsonApiAs, sleep, type Json } from '@platform/testing';
import { billing } from '../src/index';
import { budgetWorld, dayBefore, type BudgetWorld } from './budgets-world';

// Budget alerts (issue 39, item 4) delivered for real: communication sends them to a local webhook
// through a channel; each threshold alerts once per period, whichever instance evaluates, across
// a restart and a crash between communication's answer and billing's record; an alert that cannot
// be sent stays pending, visible on its budget, and goes once it can, without holding back newer
// ones; the ledger records each one once.

let w: BudgetWorld;
const { admin, owner } = CALLERS;
beforeAll(async () => {
  w = await budgetWorld();
  await w.channel('alerts');
}, 30_000);
afterAll(() => w?.close());

const today = dayBefore(0);
const spend = async (provider: string, amount: number) =>
  expect(
    (await w.billing(owner).post('/items', { name: provider, amount, provider, date: today }))
      .status,
  ).toBe(201);
const evaluate = async (app = w.world.app) => {
  const res = await jsonApiAs(app, billing.prefix, owner).post('/budgets/evaluate');
  expect(res.status).toBe(200);
  return res.body.data;
};
const budget = async (name: string) => (await w.billing(owner).get(`/budgets/${name}`)).body.data;
const messagesOf = (name: string) =>
  w.hook.received.filter((m) => m.body.subject.startsWith(`Budget ${name}:`));

describe('a budget crossing its thresholds', () => {
  let id: string;
  beforeAll(async () => {
    const made = await w.billing(owner).post('/budgets', {
      name: 'cloud',
      amount: 10_000,
      period: 'month',
      filter: { provider: 'aws' },
      thresholds: [100, 50, 150],
      channel: 'alerts',
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ thresholds: [50, 100, 150], spent: 0, status: 'ok' });
    id = made.body.data.id;
  });

  it('alerts once when two instances evaluate at once, through the webhook, recorded in the ledger', async () => {
    await spend('aws', 6_000);
    const second = await w.instance();
    const [a, b] = await Promise.all([evaluate(), evaluate(second)]);
    // 60 %: the 50 % threshold, claimed by exactly one of the two.
    expect(a.claimed + b.claimed).toBe(1);
    await eventually(() => messagesOf('cloud').length === 1, { what: 'the webhook called' });
    const [message] = messagesOf('cloud');
    expect(message.body).toMatchObject({
      appId: 'billing',
      subject: 'Budget cloud: 50% reached',
      text: expect.stringContaining('has reached 50% of 100.00 USD for'),
      metadata: { budgetId: id, threshold: 50, basis: 'actual', spent: 6_000, amount: 10_000 },
    });
    const shown = await budget('cloud');
    expect(shown).toMatchObject({ spent: 6_000, status: 'warning' });
    expect(shown.alerts).toEqual([
      expect.objectContaining({ threshold: 50, status: 'sent', recorded: true, error: null }),
    ]);
    expect(message.headers['x-platform-delivery']).toBe(shown.alerts[0].deliveryId);
    const events = await w.events('billing.budget.alert');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      service: 'billing',
      resource: `billing.budget:${id}`,
      actor: 'service:billing',
      details: {
        budgetId: id,
        budget: 'cloud',
        period: shown.currentPeriod.key,
        threshold: 50,
        spent: 6_000,
        forecast: shown.forecast,
      },
    });
  });

  it('alerts the next threshold once, and nothing again after a restart', async () => {
    await spend('aws', 5_000);
    expect((await evaluate()).claimed).toBe(1);
    expect((await evaluate()).claimed).toBe(0);
    // A new instance with nothing in memory (a restart) finds every alert claimed.
    const restarted = await w.instance();
    expect(await evaluate(restarted)).toMatchObject({ claimed: 0, sent: 0 });
    await eventually(() => messagesOf('cloud').length === 2, { what: 'the second alert' });
    await sleep(200);
    expect(messagesOf('cloud').map((m) => m.body.metadata.threshold)).toEqual([50, 100]);
    expect(await budget('cloud')).toMatchObject({ spent: 11_000, status: 'over' });
    expect((await w.events('billing.budget.alert')).map((e) => e.details.threshold)).toEqual([
      50, 100,
    ]);
  });

  it('sends and records nothing twice after a crash between the answers and the alert marked', async () => {
    const before = (await budget('cloud')).alerts.find((a: Json) => a.threshold === 100);
    // What a crash leaves: communication accepted the message and the ledger recorded the event,
    // the row still says pending and not recorded (an attempt to record it had begun).
    await w.db
      .updateTable('alerts')
      .set({ status: 'pending', delivery_id: null, sent_at: null, recorded_at: null })
      .where('id', '=', before.id)
      .execute();
    expect(await evaluate()).toMatchObject({ claimed: 0, sent: 1, pending: 0, recorded: 1 });
    // The ledger was asked first: it had the event (its details carry the alert's id).
    const events = await w.events('billing.budget.alert');
    expect(events.map((e) => e.details.alertId)).toEqual([expect.any(String), before.id]);
    const after = (await budget('cloud')).alerts.find((a: Json) => a.threshold === 100);
    // The same Idempotency-Key: communication answers with the first delivery, sends nothing.
    expect(after).toMatchObject({ status: 'sent', deliveryId: before.deliveryId });
    await sleep(200);
    expect(messagesOf('cloud')).toHaveLength(2);
  });
});

describe('an alert that cannot be sent', () => {
  it('stays pending with the reason while the channel is disabled or communication is off, then goes', async () => {
    const ops = await w.channel('ops');
    expect(
      (
        await w.billing(owner).post('/budgets', {
          name: 'gcp',
          amount: 1_000,
          period: 'quarter',
          filter: { provider: 'gcp' },
          thresholds: [100],
          channel: 'ops',
        })
      ).status,
    ).toBe(201);
    await w.comm(admin).patch(`/channels/${ops.id}`, { status: 'disabled' });
    await spend('gcp', 2_000);
    expect(await evaluate()).toMatchObject({ claimed: 1, sent: 0, pending: 1 });
    expect((await budget('gcp')).alerts).toEqual([
      expect.objectContaining({
        status: 'pending',
        attempts: 1,
        error: `The channel ops (${ops.id}) is disabled`,
        recorded: true,
      }),
    ]);

    w.world.setEnabled('communication', false);
    expect(await evaluate()).toMatchObject({ claimed: 0, sent: 0, pending: 1 });
    expect((await budget('gcp')).alerts[0].error).toMatch(
      /^communication answered 404 NOT_FOUND: Route GET \/api\/v1\/communication\/channels\/ch_\w+ not found$/,
    );
    // A budget cannot be made while its channel cannot be checked: nothing stored.
    const refused = await w.billing(owner).post('/budgets', {
      name: 'unchecked',
      amount: 100,
      period: 'month',
      channel: 'ops',
    });
    expect([refused.status, refused.body.error.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect((await w.billing(owner).get('/budgets/unchecked')).status).toBe(404);

    w.world.setEnabled('communication', true);
    await w.comm(admin).patch(`/channels/${ops.id}`, { status: 'active' });
    expect(await evaluate()).toMatchObject({ sent: 1, pending: 0 });
    await eventually(() => messagesOf('gcp').length === 1, { what: 'the alert sent' });
    expect((await budget('gcp')).alerts[0]).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it('stays pending while its channel is gone, and follows the budget to a new channel', async () => {
    const temp = await w.channel('temp');
    const made = await w.billing(owner).post('/budgets', {
      name: 'azure',
      amount: 500,
      period: 'year',
      filter: { provider: 'azure' },
      thresholds: [100],
      channel: temp.name,
    });
    expect(made.body.data).toMatchObject({ channel: temp.id, channelName: 'temp' });
    expect((await w.comm(admin).del(`/apps/billing/channels/${temp.id}`)).status).toBe(200);
    expect((await w.comm(admin).del(`/channels/${temp.id}`)).status).toBe(200);
    await spend('azure', 700);
    expect(await evaluate()).toMatchObject({ claimed: 1, pending: 1 });
    expect((await budget('azure')).alerts[0].error).toBe(
      `Channel not found: ${temp.id} (communication)`,
    );
    expect((await w.billing(owner).put('/budgets/azure', { channel: 'alerts' })).status).toBe(200);
    expect(await evaluate()).toMatchObject({ sent: 1, pending: 0 });
    await eventually(() => messagesOf('azure').length === 1, { what: 'the alert sent' });
  });
});

describe('alerts that keep failing', () => {
  it('do not hold back newer ones: each waits for its retry, then expires once no longer current', async () => {
    // More alerts that cannot be sent than a lease takes at once (or ever took: 100), all older
    // than a budget's new alert.
    const STUCK = 101;
    const anomaly = await w.stuckAlerts(STUCK);
    const late = { name: 'late', amount: 100, period: 'month', filter: { provider: 'late' } };
    const made = await w.billing(owner).post('/budgets', {
      ...{ ...late, thresholds: [100], channel: 'alerts' },
    });
    expect(made.status).toBe(201);
    await spend('late', 100);
    expect(await evaluate()).toMatchObject({ claimed: 1, sent: 1, pending: STUCK });
    await eventually(() => messagesOf('late').length === 1, { what: 'the new alert sent' });

    // With a backoff (this instance: 60 s, doubling), the second failure in a row waits 120 s:
    // the run after passes them by.
    const patient = await w.instance({ BILLING_ALERT_RETRY_MS: '60000' });
    expect(await evaluate(patient)).toMatchObject({ pending: STUCK });
    expect(await evaluate(patient)).toMatchObject({ pending: 0 });
    const { failures, attempts, wait } = await w.alert('stuck0000000');
    expect([failures, attempts, Number(wait) > 100 && Number(wait) <= 120]).toEqual([2, 2, true]);

    // An anomaly no longer open: its alerts expire unsent. A budget alert of a period long over
    // (a stale "80 % of February") expires too, and is still recorded in the ledger.
    await w.db
      .updateTable('anomalies')
      .set({ status: 'resolved' })
      .where('id', '=', anomaly)
      .execute();
    await w.staleBudgetAlert('stalebudget1', made.body.data.id);
    expect(await evaluate()).toMatchObject({
      expired: STUCK + 1,
      sent: 0,
      pending: 0,
      recorded: 1,
    });
    expect(await w.alert('stalebudget1')).toMatchObject({ status: 'expired', attempts: 0 });
    expect((await w.events('billing.budget.alert')).at(-1)?.details.alertId).toBe('stalebudget1');
  });
});

describe('anomaly alerts', () => {
  it('go to the channels of the budgets covering the provider and BILLING_ANOMALY_CHANNEL, once each', async () => {
    // Two budgets cover oci; one's channel is also BILLING_ANOMALY_CHANNEL (by name): two alerts.
    const oci = { amount: 10_000_000, period: 'month', filter: { provider: 'oci' } };
    for (const [name, channel] of Object.entries({ oci: 'alerts', 'oci-ops': 'ops' }))
      expect((await w.billing(owner).post('/budgets', { ...oci, name, channel })).status).toBe(201);
    // 14 days of 10 000 cents, then 15 000 yesterday: a baseline that never varied (MAD and mean
    // deviation 0, score null), risen by 5 000.
    for (let k = 15; k >= 1; k--)
      await w.billing(owner).post('/items', {
        name: 'oci',
        amount: k === 1 ? 15_000 : 10_000,
        provider: 'oci',
        date: dayBefore(k),
      });
    const env = { BILLING_ANOMALY_INTERVAL_MS: '200', BILLING_ANOMALY_CHANNEL: 'ops' };
    await w.instance(env, { pollMs: 50 });
    const subject = `Spend anomaly: provider oci on ${dayBefore(1)}`;
    const sent = () => w.hook.received.filter((m) => m.body.subject === subject);
    await eventually(() => sent().length === 2, { what: 'the anomaly sent to two channels' });
    const [anomaly] = (await w.billing(owner).get('/anomalies?provider=oci')).body.data;
    expect(anomaly).toMatchObject({
      expected: 10_000,
      actual: 15_000,
      size: 5_000,
      score: null,
      mad: 0,
    });
    expect(anomaly.alerts.map((a: Json) => a.status)).toEqual(['sent', 'sent']);
    expect(sent()[0].body.text).toBe(
      `${subject.replace(' on', ' spent 150.00 USD on')}, 50.00 USD above the expected 100.00 USD (a baseline that never varied).`,
    );
    await eventually(async () => (await w.events('billing.anomaly.alert')).length === 1, {
      what: 'the ledger event',
    });
    expect((await w.events('billing.anomaly.alert'))[0]).toMatchObject({
      resource: `billing.anomaly:${anomaly.id}`,
      details: {
        provider: 'oci',
        day: dayBefore(1),
        expected: 10_000,
        actual: 15_000,
        size: 5_000,
      },
    });
    // The job keeps running and finds the same day: nothing more.
    await sleep(500);
    expect(sent()).toHaveLength(2);
    expect(await w.events('billing.anomaly.alert')).toHaveLength(1);
  });
});
