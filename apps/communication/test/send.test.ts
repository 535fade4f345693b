import { channelWithApp, startService, type Client } from './helpers';

describe('sending through the log channel', () => {
  let client: Client;
  beforeEach(async () => {
    client = await startService();
    await channelWithApp(client, { name: 'log', provider: 'log' }, { target: 'ops' });
  });

  it('answers 202 at once with the accepted delivery, then sends it (not live)', async () => {
    const res = await client.call('POST', '/apps/app1/send', {
      channelId: 'log',
      text: 'Deployed',
      subject: 'Deploy',
      metadata: { build: 7 },
    });
    expect(res.status).toBe(202);
    const { delivery, provider, live } = res.body.data;
    expect({ provider, live }).toEqual({ provider: 'log', live: false });
    expect(delivery).toMatchObject({
      id: expect.stringMatching(/^dl_[A-Za-z0-9]{8}$/),
      appId: 'app1',
      provider: 'log',
      target: 'ops',
      status: 'accepted',
      subject: 'Deploy',
      metadata: { build: 7 },
      providerMessageId: null,
      live: false,
      idempotencyKey: null,
    });
    const sent = await client.settled('app1', delivery.id);
    expect(sent).toMatchObject({
      status: 'sent',
      providerMessageId: `log:${delivery.id}`,
      error: null,
      attemptCount: 1,
      text: 'Deployed',
      html: null,
      attempts: [{ number: 1, outcome: 'sent', error: null, at: expect.any(String) }],
    });
    expect(sent.attempts[0].durationMs).toEqual(expect.any(Number));
  });

  it('sends to `to` instead of the registration target', async () => {
    const res = await client.call('POST', '/apps/app1/send', {
      channelId: 'log',
      text: 'x',
      to: 'dev',
    });
    expect(res.body.data.delivery.target).toBe('dev');
  });

  it('says which of channel and registration is missing or off', async () => {
    const send = (appId: string, body: object) => client.call('POST', `/apps/${appId}/send`, body);
    expect((await send('app1', { channelId: 'nope', text: 'x' })).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Channel not found: nope',
    });
    expect((await send('app2', { channelId: 'log', text: 'x' })).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Registration not found: app app2 is not registered on channel log',
    });
    await client.call('PATCH', '/apps/app1/channels/log', { enabled: false });
    const regOff = await send('app1', { channelId: 'log', text: 'x' });
    expect(regOff.status).toBe(400);
    expect(regOff.body.error.message).toMatch(
      /^Registration reg_\w{8} of app app1 on channel log is disabled$/,
    );
    await client.call('PATCH', '/apps/app1/channels/log', { enabled: true });
    await client.call('PATCH', '/channels/log', { status: 'disabled' });
    const channelOff = await send('app1', { channelId: 'log', text: 'x' });
    expect(channelOff.status).toBe(400);
    expect(channelOff.body.error.message).toBe(
      'Channel log is disabled: set its status to active to send through it',
    );
    expect((await client.call('GET', '/apps/app1/deliveries')).body.data).toEqual([]);
  });

  it.each([
    [{ text: 'x' }, /channelId/],
    [{ channelId: 'log' }, /text/],
    [{ channelId: 'log', text: '' }, /text/],
    [{ channelId: 'log', text: 'x', metadata: 'm' }, /metadata/],
    [{ channelId: 'log', text: 'x', priority: 'high' }, /priority/],
  ])('refuses %j', async (body, message) => {
    const res = await client.call('POST', '/apps/app1/send', body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(message);
  });

  it('asks smtp sends for a subject and a recipient', async () => {
    const smtp = { host: '127.0.0.1', port: 2525, from: 'a@example.com' };
    await channelWithApp(
      client,
      { name: 'mail', provider: 'smtp', config: smtp },
      { appId: 'app9' },
    );
    const send = (body: object) =>
      client.call('POST', '/apps/app9/send', { channelId: 'mail', ...body });
    expect((await send({ text: 'x', subject: 's' })).body.error.message).toBe(
      'to is required: the registration of app app9 on channel mail has no target',
    );
    expect((await send({ text: 'x', to: 'b@example.com' })).body.error.message).toBe(
      'subject is required for an smtp channel',
    );
    expect(
      (await send({ text: 'x', subject: 's', to: 'b@example.com; c' })).body.error.message,
    ).toMatch(/^to must be email addresses separated by commas/);
  });
});

describe('Idempotency-Key', () => {
  let client: Client;
  beforeEach(async () => {
    client = await startService();
    await channelWithApp(client, { name: 'log', provider: 'log' });
  });
  const send = (body: object, key?: string, appId = 'app1') =>
    client.call(
      'POST',
      `/apps/${appId}/send`,
      body,
      key === undefined ? {} : { 'idempotency-key': key },
    );

  it('answers a repeat with the first delivery, 202, without sending again', async () => {
    const body = { channelId: 'log', text: 'once', metadata: { a: 1, b: 2 } };
    const first = await send(body, 'order-42');
    expect(first.status).toBe(202);
    expect(first.body.data.delivery.idempotencyKey).toBe('order-42');
    await client.settled('app1', first.body.data.delivery.id);
    // The same request with its keys in another order.
    const again = await send(
      { metadata: { b: 2, a: 1 }, text: 'once', channelId: 'log' },
      'order-42',
    );
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toMatchObject({
      provider: 'log',
      live: false,
      delivery: { id: first.body.data.delivery.id, status: 'sent' },
    });
    expect((await client.call('GET', '/apps/app1/deliveries')).body.data).toHaveLength(1);
  });

  it('refuses a repeat of a key with a different request: 409', async () => {
    const first = await send({ channelId: 'log', text: 'one' }, 'k1');
    const other = await send({ channelId: 'log', text: 'two' }, 'k1');
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe(
      `Idempotency-Key k1 was sent before with a different request (delivery ${first.body.data.delivery.id}); use a new key for a new message`,
    );
  });

  it('keeps keys per app, and sends once for concurrent repeats', async () => {
    await client.call('POST', '/apps/app2/channels', { channelId: 'log' });
    const body = { channelId: 'log', text: 'x' };
    const [a, b] = await Promise.all([send(body, 'same'), send(body, 'same', 'app2')]);
    expect(a.body.data.delivery.id).not.toBe(b.body.data.delivery.id);
    const burst = await Promise.all(Array.from({ length: 8 }, () => send(body, 'burst')));
    expect(burst.map((r) => r.status)).toEqual(Array(8).fill(202));
    expect(new Set(burst.map((r) => r.body.data.delivery.id)).size).toBe(1);
    expect((await client.call('GET', '/apps/app1/deliveries')).body.data).toHaveLength(2);
  });

  it('refuses a key too long', async () => {
    const res = await send({ channelId: 'log', text: 'x' }, 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'Idempotency-Key must be one value of 1 to 255 visible ASCII characters',
    );
  });
});
