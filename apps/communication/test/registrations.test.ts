import { startService, type Client } from './helpers';

const SMTP = { host: 'smtp.example.com', from: 'noreply@example.com' };

describe('registrations', () => {
  let client: Client;
  let mail: { id: string };
  let log: { id: string };
  beforeEach(async () => {
    client = await startService({ jobs: false });
    mail = (
      await client.call('POST', '/channels', { name: 'mail', provider: 'smtp', config: SMTP })
    ).body.data;
    log = (await client.call('POST', '/channels', { name: 'log', provider: 'log' })).body.data;
  });

  it('registers an app on a channel, enabled, and finds it by its id or its channel', async () => {
    const res = await client.call('POST', '/apps/shop/channels', {
      channelId: 'MAIL',
      target: 'ops@example.com, cto@example.com',
      metadata: { team: 'ops' },
    });
    expect(res.status).toBe(201);
    const reg = res.body.data;
    expect(reg).toEqual({
      id: expect.stringMatching(/^reg_[A-Za-z0-9]{8}$/),
      appId: 'shop',
      channelId: mail.id,
      target: 'ops@example.com, cto@example.com',
      metadata: { team: 'ops' },
      enabled: true,
      createdAt: expect.any(String),
      updatedAt: reg.createdAt,
    });
    for (const ref of [reg.id, mail.id, 'mail', 'Mail'])
      expect((await client.call('GET', `/apps/shop/channels/${ref}`)).body.data).toEqual(reg);
    // Another app's registration is not this app's.
    expect(await client.call('GET', `/apps/other/channels/${reg.id}`)).toMatchObject({
      status: 404,
      body: {
        error: { code: 'NOT_FOUND', message: `Registration not found: ${reg.id} (app other)` },
      },
    });
  });

  it('changes enabled, target and metadata, keeping what is left out; deletes', async () => {
    const reg = (
      await client.call('POST', '/apps/shop/channels', { channelId: log.id, target: 'x' })
    ).body.data;
    const off = await client.call('PATCH', `/apps/shop/channels/${reg.id}`, { enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, target: 'x', metadata: {} });
    const changed = await client.call('PATCH', '/apps/shop/channels/log', {
      target: 'y',
      metadata: { a: 1 },
    });
    expect(changed.body.data).toMatchObject({ enabled: false, target: 'y', metadata: { a: 1 } });
    expect((await client.call('DELETE', `/apps/shop/channels/${reg.id}`)).body.data.id).toBe(
      reg.id,
    );
    expect((await client.call('GET', `/apps/shop/channels/${reg.id}`)).status).toBe(404);
    // Its channel can go now.
    expect((await client.call('DELETE', '/channels/log')).status).toBe(200);
  });

  it('allows one registration per app and channel', async () => {
    await client.call('POST', '/apps/shop/channels', { channelId: log.id });
    const again = await client.call('POST', '/apps/shop/channels', { channelId: 'log' });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({
      code: 'CONFLICT',
      message: 'App shop is registered on channel log already',
    });
    expect((await client.call('POST', '/apps/blog/channels', { channelId: 'log' })).status).toBe(
      201,
    );
  });

  it.each([
    [{ channelId: 'nope' }, 404, 'Channel not found: nope'],
    [{}, 400, /channelId/],
    [
      { channelId: 'mail', target: 'not-an-address' },
      400,
      'target must be email addresses separated by commas for an smtp channel; not an address: not-an-address',
    ],
    [{ channelId: 'mail', target: 'a@example.com,' }, 400, /not an address: \(empty\)$/],
    [{ channelId: 'log', metadata: ['x'] }, 400, /metadata/],
    [{ channelId: 'log', enabled: false }, 400, /enabled/],
  ])('refuses %j', async (body, status, message) => {
    const res = await client.call('POST', '/apps/shop/channels', body);
    expect(res.status).toBe(status);
    expect(res.body.error.message).toEqual(
      typeof message === 'string' ? message : expect.stringMatching(message),
    );
  });

  it('refuses an app id that is not a plain name, and a bad target on PATCH', async () => {
    expect((await client.call('GET', '/apps/%20x/channels')).status).toBe(400);
    await client.call('POST', '/apps/shop/channels', { channelId: 'mail' });
    const res = await client.call('PATCH', '/apps/shop/channels/mail', { target: 'nobody' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^target must be email addresses/);
  });

  it('lists an app’s registrations newest first, by channel, in pages', async () => {
    const first = (await client.call('POST', '/apps/shop/channels', { channelId: 'mail' })).body
      .data;
    const second = (await client.call('POST', '/apps/shop/channels', { channelId: 'log' })).body
      .data;
    await client.call('POST', '/apps/blog/channels', { channelId: 'log' });
    const ids = async (query: string) =>
      (await client.call('GET', `/apps/shop/channels${query}`)).body.data.map(
        (r: { id: string }) => r.id,
      );
    expect(await ids('')).toEqual([second.id, first.id]);
    expect(await ids('?limit=1')).toEqual([second.id]);
    expect(await ids('?limit=1&offset=1')).toEqual([first.id]);
    expect(await ids(`?channelId=${mail.id}`)).toEqual([first.id]);
    expect(await ids('?channelId=LOG')).toEqual([second.id]);
    expect(await ids('?channelId=unknown')).toEqual([]);
  });
});
