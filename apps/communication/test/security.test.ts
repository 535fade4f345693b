import { Writable } from 'node:stream';
import type { SMTPServerOptions } from 'smtp-server';
import { authSettings, buildServiceApp, loggerOptions, signIdentity } from '@platform/core';
import { migrateSchema, sql } from '@platform/db';
import { sleep, testDatabase } from '@platform/testing';
import { communication } from '../src/index';
import { isPrivateAddress } from '@platform/core';
import {
  AUTH_ENV,
  FAST_ENV,
  SESSION_SECRET,
  channelWithApp,
  httpPeer,
  smtpPeer,
  smtpReply,
  startService,
  sendMail,
} from './helpers';

const MESSAGE = { channelId: 'mail', subject: 'Hello', text: 'Body' };
const NO_PRIVATE = { COMMUNICATION_ALLOW_PRIVATE_TARGETS: 'false' };

describe('resolved values never reach a message', () => {
  it('fails a channel stored with a reference in a non-secret field, naming the field only', async () => {
    const smtp = await smtpPeer();
    const client = await startService({ env: { CHANNEL_HOOK_SECRET: 'the-hook-secret-value' } });
    const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
    const { channel } = await channelWithApp(
      client,
      { name: 'mail', provider: 'smtp', config },
      { target: 'dev@example.com' },
    );
    // As a channel written before references were limited to secret fields would be stored.
    await sql`update communication.channels set config = config || '{"host": "env:CHANNEL_HOOK_SECRET"}'::jsonb
      where id = ${channel.id}`.execute(client.svc.db.kysely);
    const res = await client.call('POST', '/apps/app1/send', MESSAGE);
    const failed = await client.settled('app1', res.body.data.delivery.id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'config.host is an env: reference, which only secret fields may be: write it again',
    });
    expect(JSON.stringify(failed)).not.toContain('the-hook-secret-value');
    expect(smtp.mails).toEqual([]);
  });

  it('names the reference, not its value, when the value is wrong', async () => {
    const client = await startService({
      env: { CHANNEL_HOOK_SECRET: 'short-VALUE', CHANNEL_SLACK_URL: 'not a url TOKEN-VALUE' },
    });
    await channelWithApp(client, {
      name: 'hook',
      provider: 'webhook',
      config: { url: 'https://example.com/h', secret: 'env:CHANNEL_HOOK_SECRET' },
    });
    await channelWithApp(client, {
      name: 'chat',
      provider: 'slack',
      config: { webhookUrl: 'env:CHANNEL_SLACK_URL' },
    });
    const errors: string[] = [];
    for (const channelId of ['hook', 'chat']) {
      const res = await client.call('POST', '/apps/app1/send', { channelId, text: 'x' });
      errors.push((await client.settled('app1', res.body.data.delivery.id)).error);
    }
    expect(errors).toEqual([
      'config.secret: the value of env:CHANNEL_HOOK_SECRET must be 16 to 2000 characters long',
      'config.webhookUrl: the value of env:CHANNEL_SLACK_URL must be an absolute http or https URL',
    ]);
  });
});

describe('SMTP login', () => {
  it('never sends a password over a connection without TLS (requireTLS)', async () => {
    let logins = 0;
    const onAuth: SMTPServerOptions['onAuth'] = (_auth, _session, cb) => {
      logins += 1;
      cb(null, { user: 'mailer' });
    };
    // A server that takes AUTH in the clear and offers no STARTTLS.
    const smtp = await smtpPeer({
      onAuth,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
    });
    const client = await startService({ env: { CHANNEL_SMTP_PASS: 'the-smtp-password' } });
    const res = await sendMail(client, smtp, 'env:CHANNEL_SMTP_PASS', MESSAGE);
    const failed = await client.settled('app1', res.body.data.delivery.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^SMTP 127\.0\.0\.1/);
    expect(failed.error).not.toContain('the-smtp-password');
    expect(logins).toBe(0);
    expect(smtp.mails).toEqual([]);
  });

  it('logs in over STARTTLS, the certificate verified', async () => {
    const onAuth: SMTPServerOptions['onAuth'] = (auth, _session, cb) =>
      auth.password === 'the-smtp-password'
        ? cb(null, { user: auth.username })
        : cb(smtpReply(535, 'no'));
    const smtp = await smtpPeer({ onAuth });
    const config = {
      host: smtp.host,
      port: smtp.port,
      from: 'ci@example.com',
      user: 'mailer',
      pass: 'env:CHANNEL_SMTP_PASS',
    };
    const send = async (env: Record<string, string>) => {
      const client = await startService({
        env: { CHANNEL_SMTP_PASS: 'the-smtp-password', ...env },
      });
      await channelWithApp(
        client,
        { name: 'mail', provider: 'smtp', config },
        { target: 'dev@example.com' },
      );
      const res = await client.call('POST', '/apps/app1/send', MESSAGE);
      return client.settled('app1', res.body.data.delivery.id);
    };
    expect(await send({})).toMatchObject({ status: 'sent' });
    expect(smtp.mails.map((m) => [m.user, m.tls])).toEqual([['mailer', true]]);
    // The same server, its certificate not trusted: nothing is sent, no password given.
    const untrusted = await send({ COMMUNICATION_SMTP_CA: '' });
    expect(untrusted).toMatchObject({ status: 'failed' });
    expect(untrusted.error).toMatch(/certificate/);
    expect(smtp.mails).toHaveLength(1);
  });
});

describe('private destinations', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['8.8.8.8', false],
    ['2606:4700:4700::1111', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it('refuses webhook and Slack URLs on internal addresses, after DNS resolution, by default', async () => {
    const peer = await httpPeer(() => ({ status: 200, body: '{"id":"x"}' }));
    const port = new URL(peer.url).port;
    const client = await startService({
      env: { ...NO_PRIVATE, CHANNEL_HOOK_SECRET: 'whsec-0123456789abcdef' },
    });
    const channels = [
      ['hook', 'webhook', { url: `${peer.url}/h`, secret: 'env:CHANNEL_HOOK_SECRET' }],
      [
        'named',
        'webhook',
        { url: `http://localhost:${port}/h`, secret: 'env:CHANNEL_HOOK_SECRET' },
      ],
      [
        'meta',
        'webhook',
        { url: 'http://169.254.169.254/latest', secret: 'env:CHANNEL_HOOK_SECRET' },
      ],
    ] as const;
    const errors: string[] = [];
    for (const [name, provider, config] of channels) {
      await channelWithApp(client, { name, provider, config });
      const res = await client.call('POST', '/apps/app1/send', { channelId: name, text: 'x' });
      const failed = await client.settled('app1', res.body.data.delivery.id);
      expect(failed).toMatchObject({ status: 'failed', attemptCount: 1 });
      errors.push(failed.error);
    }
    expect(errors).toEqual([
      'The destination 127.0.0.1 is a loopback, private, link-local or unspecified address, refused (COMMUNICATION_ALLOW_PRIVATE_TARGETS is not true)',
      'The destination localhost is a loopback, private, link-local or unspecified address, refused (COMMUNICATION_ALLOW_PRIVATE_TARGETS is not true)',
      'The destination 169.254.169.254 is a loopback, private, link-local or unspecified address, refused (COMMUNICATION_ALLOW_PRIVATE_TARGETS is not true)',
    ]);
    expect(peer.requests).toEqual([]);
  });

  it('refuses an SMTP host on an internal address by default', async () => {
    let connections = 0;
    const smtp = await smtpPeer({ onConnect: (_s, cb) => (connections++, cb()) });
    const client = await startService({ env: NO_PRIVATE });
    const config = { host: 'localhost', port: smtp.port, from: 'ci@example.com' };
    await channelWithApp(
      client,
      { name: 'mail', provider: 'smtp', config },
      { target: 'dev@example.com' },
    );
    const res = await client.call('POST', '/apps/app1/send', MESSAGE);
    expect(await client.settled('app1', res.body.data.delivery.id)).toMatchObject({
      status: 'failed',
      error:
        'SMTP localhost is a loopback, private, link-local or unspecified address, refused (COMMUNICATION_ALLOW_PRIVATE_TARGETS is not true)',
    });
    expect(connections).toBe(0);
  });

  it('keeps nothing of an answer but a JSON id', async () => {
    const answers = [
      { status: 200, body: 'internal page: root:x:0:0' },
      { status: 200, body: '{"user":"root","token":"abc"}' },
      { status: 201, body: '{"id":"msg_42"}' },
      { status: 404, body: 'internal error page: root:x:0:0' },
    ];
    const peer = await httpPeer((_req, n) => answers[n - 1]);
    const client = await startService({ env: { CHANNEL_HOOK_SECRET: 'whsec-0123456789abcdef' } });
    await channelWithApp(client, {
      name: 'hook',
      provider: 'webhook',
      config: { url: peer.url, secret: 'env:CHANNEL_HOOK_SECRET' },
    });
    const results = [];
    for (let i = 0; i < answers.length; i++) {
      const res = await client.call('POST', '/apps/app1/send', { channelId: 'hook', text: 'x' });
      const d = await client.settled('app1', res.body.data.delivery.id);
      results.push([d.status, d.providerMessageId, d.error && d.error.replace(/:\d+ /, ':port ')]);
    }
    expect(results).toEqual([
      ['sent', 'HTTP 200', null],
      ['sent', 'HTTP 200', null],
      ['sent', 'msg_42', null],
      ['failed', null, '127.0.0.1:port answered 404'],
    ]);
  });
});

describe('the registration is checked again before sending', () => {
  it.each(['disabled', 'deleted'])('fails a delivery whose registration was %s', async (change) => {
    // The first attempt fails (500); the registration changes before the retry.
    const peer = await httpPeer(() => ({ status: 500 }));
    const client = await startService({
      env: { CHANNEL_HOOK_SECRET: 'whsec-0123456789abcdef', COMMUNICATION_RETRY_MS: '400' },
    });
    const { registration } = await channelWithApp(client, {
      name: 'hook',
      provider: 'webhook',
      config: { url: peer.url, secret: 'env:CHANNEL_HOOK_SECRET' },
    });
    const res = await client.call('POST', '/apps/app1/send', { channelId: 'hook', text: 'x' });
    expect(res.status).toBe(202);
    while (peer.requests.length === 0) await sleep(10);
    const changed =
      change === 'disabled'
        ? await client.call('PATCH', '/apps/app1/channels/hook', { enabled: false })
        : await client.call('DELETE', '/apps/app1/channels/hook');
    expect(changed.status).toBe(200);
    const failed = await client.settled('app1', res.body.data.delivery.id);
    expect(failed).toMatchObject({
      status: 'failed',
      attemptCount: 2,
      error:
        change === 'disabled'
          ? `Registration ${registration.id} of app app1 on channel hook was disabled before sending`
          : 'App app1 is no longer registered on channel hook: its registration was deleted before sending',
    });
    expect(peer.requests).toHaveLength(1);
  });
});

describe('interruptions', () => {
  /** A delivery whose first run is cut short (its instance stops before the SMTP greeting). */
  async function interrupted(env: Record<string, string>) {
    let connections = 0;
    const smtp = await smtpPeer({
      onConnect: (_session, cb) => (++connections === 1 ? undefined : cb()),
    });
    const db = await testDatabase();
    const first = await startService({ db, env, jobs: { pollMs: 20, leaseMs: 300, drainMs: 50 } });
    const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
    await channelWithApp(
      first,
      { name: 'mail', provider: 'smtp', config },
      { target: 'dev@example.com' },
    );
    const res = await first.call('POST', '/apps/app1/send', MESSAGE);
    while (connections === 0) await sleep(10);
    await first.svc.app.close();
    return { db, smtp, id: res.body.data.delivery.id as string };
  }

  it('does not count an interrupted run as a provider attempt (COMMUNICATION_MAX_ATTEMPTS=1)', async () => {
    const env = { COMMUNICATION_MAX_ATTEMPTS: '1' };
    const { db, smtp, id } = await interrupted(env);
    const second = await startService({ db, env, jobs: { pollMs: 20 } });
    try {
      const sent = await second.settled('app1', id);
      expect(sent).toMatchObject({ status: 'sent', attemptCount: 2 });
      expect(sent.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
        'interrupted',
        'sent',
      ]);
      expect(smtp.mails).toHaveLength(1);
    } finally {
      await second.svc.app.close();
      await db.close();
    }
  });

  it('fails a delivery interrupted too often in its own words', async () => {
    const env = { COMMUNICATION_MAX_ATTEMPTS: '1' };
    const { db, smtp, id } = await interrupted(env);
    // As if it had been interrupted twice more (the jobs lib allows MAX_ATTEMPTS + 2 runs).
    await sql`update communication.jobs set attempts = max_attempts
      where payload->>'deliveryId' = ${id}`.execute(db.kysely);
    const second = await startService({ db, env, jobs: { pollMs: 20 } });
    try {
      const failed = await second.settled('app1', id);
      expect(failed).toMatchObject({
        status: 'failed',
        attemptCount: 3,
        error:
          'The service stopped during 3 attempts of this delivery (the last one 3), too many to try again: the provider may or may not have received it; send it again if it was not',
      });
      expect(failed.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
        'interrupted',
        'interrupted',
        'interrupted',
      ]);
      expect(smtp.mails).toEqual([]);
    } finally {
      await second.svc.app.close();
      await db.close();
    }
  });
});

it('a CR/LF in the subject does not add a header', async () => {
  const smtp = await smtpPeer();
  const client = await startService();
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
  await channelWithApp(
    client,
    { name: 'mail', provider: 'smtp', config },
    { target: 'dev@example.com' },
  );
  const res = await client.call('POST', '/apps/app1/send', {
    ...MESSAGE,
    subject: 'Hi\r\nBcc: victim@example.com\r\nSubject: forged',
  });
  expect(res.status).toBe(202);
  expect(await client.settled('app1', res.body.data.delivery.id)).toMatchObject({ status: 'sent' });
  const [mail] = smtp.mails;
  const headers = mail.raw.split(/\r\n\r\n/)[0];
  expect(headers.match(/^Subject:/gim)).toHaveLength(1);
  expect(headers).not.toMatch(/^Bcc:/im);
  expect(mail.to).toEqual(['dev@example.com']);
});

it('writes no secret to the service log', async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const PASS = 'literal-smtp-PASS-4321';
  const SECRET = 'literal-hook-SECRET-8765';
  const ENV_SECRET = 'env-hook-SECRET-value-1234';
  const env = { ...FAST_ENV, ...AUTH_ENV, CHANNEL_HOOK_SECRET: ENV_SECRET };
  const database = await testDatabase();
  await migrateSchema(database, communication.name, communication.migrations);
  const app = await buildServiceApp(
    communication,
    {
      database,
      config: communication.config(env),
      jobs: { pollMs: 20 },
      auth: authSettings(env),
      platform: {},
    },
    { logger: { ...loggerOptions('trace'), stream } },
  );
  try {
    const identity = await signIdentity(SESSION_SECRET, { kind: 'service', name: 'tests' });
    const call = async (method: 'POST' | 'PATCH' | 'GET', url: string, body?: object) => {
      const res = await app.inject({
        method,
        url: `${communication.prefix}${url}`,
        headers: { 'x-platform-identity': identity },
        ...(body ? { payload: body } : {}),
      });
      return res.json();
    };
    const smtp = await smtpPeer({
      onAuth: (_auth, _session, cb) => cb(null, { user: 'u' }),
      onRcptTo: (_a, _s, cb) => cb(smtpReply(550, 'No such user')),
    });
    const peer = await httpPeer((_req, n) => (n === 1 ? { status: 500 } : { status: 200 }));
    const channels = [
      [
        'mail',
        'smtp',
        { host: smtp.host, port: smtp.port, from: 'a@example.com', user: 'u', pass: PASS },
      ],
      ['hook', 'webhook', { url: peer.url, secret: SECRET }],
      ['hook2', 'webhook', { url: peer.url, secret: 'env:CHANNEL_HOOK_SECRET' }],
      ['log', 'log', {}],
    ] as const;
    for (const [name, provider, config] of channels) {
      await call('POST', '/channels', { name, provider, config });
      await call('POST', '/apps/app1/channels', { channelId: name, target: 'dev@example.com' });
      const sent = await call('POST', '/apps/app1/send', {
        channelId: name,
        subject: 's',
        text: 't',
      });
      for (;;) {
        const { data } = await call('GET', `/apps/app1/deliveries/${sent.data.delivery.id}`);
        if (data.status !== 'accepted') break;
        await sleep(20);
      }
    }
    await call('PATCH', '/channels/hook', { config: { url: peer.url, secret: '********' } });
  } finally {
    await app.close();
    await database.close();
  }
  const log = lines.join('');
  expect(log).toContain('communication: message (log channel)');
  expect(log).toContain('job deliver failed');
  for (const secret of [PASS, SECRET, ENV_SECRET, SESSION_SECRET])
    expect(log).not.toContain(secret);
});
