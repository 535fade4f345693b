import { sql } from '@platform/db';
import { startService, type Client } from './helpers';

const SMTP = { host: 'smtp.example.com', port: 587, from: 'Platform <noreply@example.com>' };

describe('channels', () => {
  let client: Client;
  beforeEach(async () => {
    client = await startService({ jobs: false });
  });

  it('creates, reads by id or name, lists, changes and deletes a channel', async () => {
    const created = await client.call('POST', '/channels', {
      name: 'Email',
      provider: 'smtp',
      description: 'Transactional mail',
      config: { ...SMTP, user: 'mailer', pass: 'env:CHANNEL_SMTP_PASS' },
    });
    expect(created.status).toBe(201);
    const channel = created.body.data;
    expect(channel).toEqual({
      id: expect.stringMatching(/^ch_[A-Za-z0-9]{8}$/),
      name: 'Email',
      provider: 'smtp',
      description: 'Transactional mail',
      status: 'active',
      config: { ...SMTP, user: 'mailer', pass: 'env:CHANNEL_SMTP_PASS' },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: channel.createdAt,
    });
    expect((await client.call('GET', `/channels/${channel.id}`)).body.data).toEqual(channel);
    expect((await client.call('GET', '/channels/EMAIL')).body.data).toEqual(channel);

    const disabled = await client.call('PATCH', '/channels/email', { status: 'disabled' });
    expect(disabled.body.data).toMatchObject({ status: 'disabled', config: channel.config });
    expect((await client.call('GET', '/channels?status=disabled')).body.data).toHaveLength(1);
    expect((await client.call('GET', '/channels?status=active')).body.data).toEqual([]);

    const removed = await client.call('DELETE', `/channels/${channel.id}`);
    expect(removed.body.data).toMatchObject({ id: channel.id, status: 'disabled' });
    expect(await client.call('GET', `/channels/${channel.id}`)).toMatchObject({
      status: 404,
      body: {
        success: false,
        error: { code: 'NOT_FOUND', message: `Channel not found: ${channel.id}` },
      },
    });
  });

  it('refuses a second channel of the same name in any case', async () => {
    await client.call('POST', '/channels', { name: 'alerts', provider: 'log' });
    const again = await client.call('POST', '/channels', { name: 'ALERTS', provider: 'log' });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({
      code: 'CONFLICT',
      message: 'A channel named ALERTS exists already',
    });
  });

  it('pages the list by name', async () => {
    for (const name of ['c', 'a', 'b'])
      await client.call('POST', '/channels', { name, provider: 'log' });
    const names = async (query: string) =>
      (await client.call('GET', `/channels${query}`)).body.data.map(
        (c: { name: string }) => c.name,
      );
    expect(await names('')).toEqual(['a', 'b', 'c']);
    expect(await names('?limit=2')).toEqual(['a', 'b']);
    expect(await names('?limit=2&offset=2')).toEqual(['c']);
    expect((await client.call('GET', '/channels?limit=0')).status).toBe(400);
    expect((await client.call('GET', '/channels?status=paused')).status).toBe(400);
  });

  it.each([
    [{ provider: 'sms' }, /provider/],
    [{ provider: 'smtp', config: { port: 25 } }, 'config.host is required for an smtp channel'],
    [
      { provider: 'smtp', config: { ...SMTP, port: 70000 } },
      'config.port must be an integer from 1 to 65535',
    ],
    [
      { provider: 'smtp', config: { ...SMTP, from: 'nobody' } },
      /^config.from must be an email address/,
    ],
    [
      { provider: 'smtp', config: { ...SMTP, secure: 'yes' } },
      'config.secure must be true or false',
    ],
    [
      { provider: 'smtp', config: { ...SMTP, pass: 'env:CHANNEL_P' } },
      'config.pass needs config.user (the SMTP login)',
    ],
    [
      { provider: 'smtp', config: { ...SMTP, tls: true } },
      /^config has an unknown field for an? smtp channel: tls \(its fields: host, port, secure, user, pass, from\)$/,
    ],
    [{ provider: 'slack', config: {} }, 'config.webhookUrl is required for a slack channel'],
    [
      { provider: 'slack', config: { webhookUrl: 'ftp://x' } },
      'config.webhookUrl must be an absolute http or https URL',
    ],
    [
      { provider: 'webhook', config: { url: 'not a url', secret: 'env:CHANNEL_S' } },
      'config.url must be an absolute http or https URL',
    ],
    [
      { provider: 'webhook', config: { url: 'http://x', secret: 'env:CHANNEL_S', extra: 1 } },
      /^config has an unknown field for a webhook channel: extra/,
    ],
    [
      { provider: 'log', config: { level: 'info' } },
      'config has an unknown field for a log channel: level (it takes none)',
    ],
  ])('refuses %j with a message naming the field', async (body, message) => {
    const res = await client.call('POST', '/channels', { name: 'x', ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toEqual(
      typeof message === 'string' ? message : expect.stringMatching(message),
    );
    expect((await client.call('GET', '/channels')).body.data).toEqual([]);
  });

  it.each(['SESSION_SECRET', 'DATABASE_URL', 'HOME', 'channel_lower'])(
    'refuses env:%s: only CHANNEL_ variables may be named',
    async (name) => {
      const res = await client.call('POST', '/channels', {
        name: 'hook',
        provider: 'webhook',
        config: { url: 'https://example.com/hook', secret: `env:${name}` },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(
        `config.secret: an env reference may only name a variable starting with CHANNEL_ (for example env:CHANNEL_SMTP_PASS), got env:${name}`,
      );
    },
  );

  it.each([
    ['smtp', { host: 'env:CHANNEL_HOOK_SECRET', from: 'a@example.com' }, 'host', 'pass'],
    ['smtp', { host: 'h', from: 'a@example.com', user: 'env:CHANNEL_USER' }, 'user', 'pass'],
    ['webhook', { url: 'env:CHANNEL_URL', secret: 'env:CHANNEL_S' }, 'url', 'secret'],
  ])(
    'refuses an env reference outside a secret field (%s %j)',
    async (provider, config, field, secrets) => {
      const res = await client.call('POST', '/channels', { name: 'c', provider, config });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(
        `config.${field} cannot be an env: reference: only secret fields (${secrets}) can name a variable`,
      );
    },
  );

  it('refuses a literal secret without authentication, pointing to env references', async () => {
    const res = await client.call('POST', '/channels', {
      name: 'hook',
      provider: 'webhook',
      config: { url: 'https://example.com/hook', secret: 'a-literal-secret-of-some-length' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'config.secret is a secret: without authentication (SESSION_SECRET) it cannot be stored encrypted; use an env:CHANNEL_... reference or turn authentication on',
    );
  });

  it('refuses a channel deleted while an app is registered on it', async () => {
    const ch = (await client.call('POST', '/channels', { name: 'log', provider: 'log' })).body.data;
    await client.call('POST', '/apps/app1/channels', { channelId: ch.id });
    const res = await client.call('DELETE', '/channels/log');
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(
      'Channel log is registered by apps app1: delete those registrations first',
    );
  });
});

describe('literal secrets, with authentication on', () => {
  const PASS = 'literal-smtp-password-1234';
  const SECRET = 'literal-webhook-secret-5678';
  const SLACK = 'https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX';

  it('stores them encrypted, answers them masked, keeps them on a PATCH sending the mask', async () => {
    const client = await startService({ auth: true, jobs: false });
    const made = await Promise.all([
      client.call('POST', '/channels', {
        name: 'mail',
        provider: 'smtp',
        config: { ...SMTP, user: 'u', pass: PASS },
      }),
      client.call('POST', '/channels', {
        name: 'hook',
        provider: 'webhook',
        config: { url: 'https://example.com/h', secret: SECRET },
      }),
      client.call('POST', '/channels', {
        name: 'chat',
        provider: 'slack',
        config: { webhookUrl: SLACK },
      }),
    ]);
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(made[0].body.data.config.pass).toBe('********');
    expect(made[1].body.data.config.secret).toBe('********');
    expect(made[2].body.data.config.webhookUrl).toBe('********');

    // The mask keeps a stored secret only for the same destination.
    const described = await client.call('PATCH', '/channels/mail', {
      description: 'mail',
      config: { ...made[0].body.data.config, from: 'other@example.com' },
    });
    expect(described.body.data.config).toMatchObject({
      from: 'other@example.com',
      pass: '********',
    });
    for (const [channel, change, moved] of [
      ['mail', { host: 'smtp2.example.com' }, 'host'],
      ['mail', { port: 2525 }, 'port'],
      ['mail', { user: 'someone-else' }, 'user'],
      ['hook', { url: 'https://attacker.example.net/h' }, 'url'],
    ] as const) {
      const config = made[channel === 'mail' ? 0 : 1].body.data.config;
      const moving = await client.call('PATCH', `/channels/${channel}`, {
        config: { ...config, ...change },
      });
      expect(moving.status).toBe(400);
      expect(moving.body.error.message).toBe(
        `config.${channel === 'mail' ? 'pass' : 'secret'} is the mask ******** but config.${moved} changed: give the secret again for a new destination`,
      );
    }
    const patched = await client.call('PATCH', '/channels/mail', {
      config: {
        ...made[0].body.data.config,
        host: 'smtp2.example.com',
        pass: 'new-pass-XXXXSECRETXXXX',
      },
    });
    expect(patched.body.data.config).toMatchObject({ host: 'smtp2.example.com', pass: '********' });
    const noPass = await client.call('PATCH', '/channels/chat', {
      config: { webhookUrl: '********' },
    });
    expect(noPass.status).toBe(200);

    const answers = JSON.stringify(
      await Promise.all(
        ['', '/mail', '/hook', '/chat'].map((p) => client.call('GET', `/channels${p}`)),
      ),
    );
    const { rows } = await sql<{
      config: object;
    }>`select config from communication.channels`.execute(client.svc.db.kysely);
    const stored = JSON.stringify(rows);
    for (const secret of [PASS, SECRET, SLACK, 'XXXXSECRETXXXX']) {
      expect(answers).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
    expect(stored).toMatch(/"pass": ?"v1\./);
  });

  it('refuses the mask for a secret the channel does not have', async () => {
    const client = await startService({ auth: true, jobs: false });
    const res = await client.call('POST', '/channels', {
      name: 'hook',
      provider: 'webhook',
      config: { url: 'https://example.com/h', secret: '********' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'config.secret is the mask ******** but this channel has no secret to keep',
    );
  });
});
