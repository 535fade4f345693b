import { eventually, type Json } from '@platform/testing';
import { workflowWorld, type WorkflowWorld } from './workflows-setup';

// Workflow runs on the whole platform (workflows-setup.ts), ada signed in: communication.send
// through a real local SMTP server (delivery tracked, refusals naming app and channel), and
// billing, pulse and ledger records made by steps and read back through their APIs.

let w: WorkflowWorld;
beforeAll(async () => {
  w = await workflowWorld();
}, 30_000);
afterAll(() => w.close());

describe('communication.send', () => {
  let sid: string;
  beforeAll(async () => {
    const send = (channelId: string) => ({
      steps: [
        {
          'communication.send': {
            channelId,
            to: '{{ input.email }}',
            subject: 'Welcome {{ input.name }}',
            text: 'Hi {{ input.name }}, from {{ auth.email }}',
            metadata: { app: '{{ app.sid }}' },
          },
          as: 'mail',
        },
        { respond: '{{ steps.mail }}' },
      ],
    });
    sid = (
      await w.publish('mailer', {
        welcome: send('mail'),
        other: send('other'),
        ghost: send('ghost'),
      })
    ).sid;
    for (const name of ['mail', 'other'])
      expect(
        (
          await w.call('POST', '/api/v1/communication/channels', {
            name,
            provider: 'smtp',
            config: { host: '127.0.0.1', port: w.smtpPort, from: 'shop@example.com' },
          })
        ).status,
      ).toBe(201);
    expect(
      (
        await w.call('POST', `/api/v1/communication/apps/${sid}/channels`, {
          channelId: 'mail',
          target: 'ops@example.com',
        })
      ).status,
    ).toBe(201);
  });

  it('sends through the registration, tracked as a delivery', async () => {
    const res = await w.run(sid, 'welcome', { email: 'grace@example.com', name: 'Grace' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      deliveryId: expect.stringMatching(/^dl_/),
      status: 'accepted',
      provider: 'smtp',
      target: 'grace@example.com',
      live: true,
      registrationId: expect.stringMatching(/^reg_/),
    });
    const delivery = async () =>
      (
        await w.call(
          'GET',
          `/api/v1/communication/apps/${sid}/deliveries/${res.body.data.deliveryId}`,
        )
      ).body.data;
    await eventually(async () => (await delivery()).status !== 'accepted', {
      timeout: 10_000,
      what: 'the delivery sent',
    });
    expect(await delivery()).toMatchObject({
      status: 'sent',
      subject: 'Welcome Grace',
      metadata: { app: sid },
      idempotencyKey: `stage-${res.run}-0`,
    });
    const mail = w.mails.find((m) => m.raw.includes('Welcome Grace'))!;
    expect(mail.to).toEqual(['grace@example.com']);
    expect(mail.raw).toContain('Hi Grace, from ada@example.com');
  });

  it('names the app and channel without a registration, and refuses a disabled one or an unknown channel', async () => {
    const none = await w.run(sid, 'other', { email: 'a@example.com', name: 'A' });
    expect([none.status, none.body.error.message]).toEqual([
      400,
      expect.stringMatching(
        new RegExp(
          `^Workflow other, steps\\[0\\] \\(communication.send as "mail"\\): App mailer \\(${sid}\\) has no registration on channel other \\(ch_\\w+\\): register it with POST /api/v1/communication/apps/${sid}/channels$`,
        ),
      ),
    ]);
    const ghost = await w.run(sid, 'ghost', { email: 'a@example.com', name: 'A' });
    expect([ghost.status, ghost.body.error.message]).toEqual([
      400,
      'Workflow ghost, steps[0] (communication.send as "mail"): Channel not found: ghost (communication)',
    ]);
    expect(
      (await w.call('PATCH', `/api/v1/communication/apps/${sid}/channels/mail`, { enabled: false }))
        .status,
    ).toBe(200);
    const off = await w.run(sid, 'welcome', { email: 'a@example.com', name: 'Off' });
    expect([off.status, off.body.error.message]).toEqual([
      400,
      expect.stringMatching(
        /^Workflow welcome, steps\[0\] \(communication.send as "mail"\): The registration reg_\w+ of app mailer \(\w+\) on channel mail \(ch_\w+\) is disabled$/,
      ),
    ]);
    expect(
      (await w.call('GET', `/api/v1/stage/apps/${sid}/runs/${off.run}`)).body.data.status,
    ).toBe('failed');
    expect(w.mails.some((m) => m.raw.includes('Welcome Off'))).toBe(false);
    await w.call('PATCH', `/api/v1/communication/apps/${sid}/channels/mail`, { enabled: true });
  });
});

describe('inference.chat and backend.call', () => {
  // The app's backend: POST /api/orders answers what it was sent and how; a 5xx on /api/broken.
  const BACKEND = `export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/broken') return new Response('down', { status: 503 });
    if (pathname !== '/api/orders') return Response.json({ error: 'no such route' }, { status: 404 });
    const body = await request.json();
    return Response.json(
      { order: 'o-' + body.n, method: request.method, agent: request.headers.get('user-agent'), key: request.headers.get('idempotency-key') },
      { status: 201 },
    );
  },
};`;
  let sid: string;
  beforeAll(async () => {
    sid = (
      await w.publish(
        'assistant',
        {
          ask: {
            steps: [
              {
                'inference.chat': {
                  model: 'mock-1',
                  messages: [{ role: 'user', content: 'Greet {{ input.name }}' }],
                  maxTokens: 20,
                },
                as: 'answer',
              },
              { respond: '{{ steps.answer }}' },
            ],
          },
          unknownModel: {
            steps: [{ 'inference.chat': { model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] } }], // prettier-ignore
          },
          order: {
            steps: [
              { 'backend.call': { path: '/orders', body: { n: '{{ input.n }}' } }, as: 'made' },
              { respond: '{{ steps.made }}' },
            ],
          },
          missing: { steps: [{ 'backend.call': { path: '/nowhere', method: 'GET' } }] },
          tolerant: {
            steps: [
              { 'backend.call': { path: '/nowhere', method: 'GET', failOnError: false }, as: 'r' },
              { respond: '{{ steps.r.status }}' },
            ],
          },
          broken: { steps: [{ 'backend.call': { path: '/broken' } }] },
        },
        undefined,
        { '/app/api/index.js': BACKEND },
      )
    ).sid;
  });

  it('chats through the inference service, the call charged to the app', async () => {
    const res = await w.run(sid, 'ask', { name: 'Grace' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      content: expect.any(String),
      model: 'mock-1',
      usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
      requestId: expect.any(String),
    });
    const usage = await w.call('GET', `/api/v1/inference/usage?app=${sid}`);
    expect(usage.status).toBe(200);
    expect(usage.body.data.requests.map((r: Json) => r.id)).toContain(res.body.data.requestId);

    const refused = await w.run(sid, 'unknownModel');
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(
      /^Workflow unknownModel, steps\[0\] \(inference.chat\): The inference service refused it \(4\d\d [A-Z_]+\): .*no-such-model/,
    );
  });

  it("calls the app's own backend with the step's key, and fails on its errors unless told not to", async () => {
    const res = await w.run(sid, 'order', { n: 7 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 201,
      headers: { 'content-type': expect.stringMatching(/^application\/json/) },
      body: {
        order: 'o-7',
        method: 'POST',
        agent: 'platform-stage-workflow',
        key: expect.any(String),
      },
    });
    const missing = await w.run(sid, 'missing');
    expect([missing.status, missing.body.error.message]).toEqual([
      400,
      'Workflow missing, steps[0] (backend.call): The backend of assistant answered GET /nowhere with 404',
    ]);
    expect((await w.run(sid, 'tolerant')).body.data).toBe(404);
    const broken = await w.run(sid, 'broken');
    expect([broken.status, broken.body.error.code]).toEqual([502, 'BAD_GATEWAY']);
  });
});

it('creates billing items, analytics events and audit events, read back through their APIs', async () => {
  const { sid } = await w.publish('records', {
    order: {
      steps: [
        {
          'billing.createItem': {
            name: 'Order {{ input.order }}',
            amount: '{{ input.cents }}',
            currency: 'EUR',
            tags: ['shop'],
          },
          as: 'item',
        },
        {
          'pulse.track': {
            name: 'order_placed',
            properties: { cents: '{{ input.cents }}' },
            userId: '{{ auth.email }}',
          },
          as: 'event',
        },
        {
          'ledger.log': {
            action: 'order.placed',
            resource: 'item:{{ steps.item.id }}',
            metadata: { order: '{{ input.order }}' },
          },
          as: 'audit',
        },
        {
          respond: {
            item: '{{ steps.item.id }}',
            event: '{{ steps.event.id }}',
            audit: '{{ steps.audit.id }}',
          },
        },
      ],
    },
    refused: { steps: [{ 'billing.createItem': { name: 'x', amount: 1, currency: 'euros' } }] },
  });
  const res = await w.run(sid, 'order', { order: 'A-1', cents: 1250 });
  expect(res.status).toBe(200);
  const { item, event, audit } = res.body.data;
  expect((await w.call('GET', `/api/v1/billing/items/${item}`)).body.data).toMatchObject({
    name: 'Order A-1',
    amount: 1250,
    currency: 'EUR',
    tags: ['shop'],
    stageApp: sid,
    author: 'ada@example.com',
  });
  expect(event).toBe(`${res.run}-1`);
  expect((await w.call('GET', `/api/v1/pulse/events/${event}`)).body.data).toMatchObject({
    name: 'order_placed',
    properties: { cents: 1250 },
    userId: 'ada@example.com',
  });
  expect((await w.call('GET', `/api/v1/ledger/events/${audit}`)).body.data).toMatchObject({
    action: 'order.placed',
    actor: 'ada@example.com',
    resource: `item:${item}`,
    metadata: { order: 'A-1' },
  });
  const steps = (await w.call('GET', `/api/v1/stage/apps/${sid}/runs/${res.run}`)).body.data.steps;
  expect(steps.map((s: Json) => [s.block, s.error])).toEqual([
    ['billing.createItem', null],
    ['pulse.track', null],
    ['ledger.log', null],
    ['respond', null],
  ]);
  expect(steps[0].input).toMatchObject({ amount: 1250 });

  const refused = await w.run(sid, 'refused');
  expect([refused.status, refused.body.error.message]).toEqual([
    400,
    expect.stringMatching(
      /^Workflow refused, steps\[0\] \(billing.createItem\): The billing service refused it \(400 BAD_REQUEST\): .*currency/,
    ),
  ]);
});

it("scopes Idempotency-Key to the caller: another caller's same key is another run", async () => {
  const { sid } = await w.publish('keys', {
    who: { steps: [{ respond: { kind: '{{ auth.kind }}', name: '{{ auth.name }}' } }] },
  });
  const key = { 'idempotency-key': 'shared-key' };
  const ada = await w.call('POST', `/api/v1/run/${sid}/who`, { input: {} }, key);
  expect(ada.body.data).toEqual({ kind: 'user', name: 'Ada' });
  const apiKey = (await w.call('POST', '/api/v1/passport/keys', { name: 'bob' })).body.data.key;
  const asKey = async () => {
    const res = await fetch(`${w.base}/api/v1/run/${sid}/who`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...key },
      body: JSON.stringify({ input: {} }),
    });
    return [res.headers.get('idempotent-replayed'), ((await res.json()) as Json).data];
  };
  expect(await asKey()).toEqual([null, { kind: 'key', name: 'bob' }]);
  expect(await asKey()).toEqual(['true', { kind: 'key', name: 'bob' }]);
  const again = await w.call('POST', `/api/v1/run/${sid}/who`, { input: {} }, key);
  expect([again.run, again.body.data]).toEqual([ada.run, { kind: 'user', name: 'Ada' }]);
});
