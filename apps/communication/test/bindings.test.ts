import type { SMTPServerOptions } from 'smtp-server';
import { sql } from '@platform/db';
import { communication } from '../src/index';
import { channelWithApp, httpPeer, smtpPeer, startService } from './helpers';

// An env: reference is bound to its destination: CHANNEL_X_DESTINATION lists the hosts (any port)
// or origins the secret of CHANNEL_X may be sent to, at creation, on a change, and at each send.
const SLACK = 'https://hooks.slack.com/services/T0/B0/SLACK-TOKEN';
const ENV = {
  CHANNEL_MAIL_PASS: 'the-mail-password',
  CHANNEL_MAIL_PASS_DESTINATION: 'smtp.corp.example, mail.corp.example',
  CHANNEL_HOOK_KEY: 'a-webhook-secret-0123456789',
  CHANNEL_HOOK_KEY_DESTINATION: 'https://hooks.example.com',
  CHANNEL_CHAT_URL: SLACK,
  CHANNEL_CHAT_URL_DESTINATION: 'hooks.slack.com',
  CHANNEL_LOOSE: 'a-secret-bound-to-nothing-0123',
};
const smtp = (host: string, pass = 'env:CHANNEL_MAIL_PASS') => ({
  name: 'mail',
  provider: 'smtp',
  config: { host, from: 'noreply@corp.example', user: 'mailer', pass },
});
const hook = (url: string, secret = 'env:CHANNEL_HOOK_KEY') => ({
  name: 'hook',
  provider: 'webhook',
  config: { url, secret },
});

describe('env: references bound to their destination', () => {
  it.each([
    ['an smtp host listed', smtp('smtp.corp.example')],
    ['a host in another case, with a final dot', smtp('MAIL.corp.example.')],
    ['a URL of the origin listed', hook('https://hooks.example.com/in?x=1')],
    ['its default port written out', hook('https://hooks.example.com:443/other')],
    [
      'a Slack URL variable on its host',
      { name: 'chat', provider: 'slack', config: { webhookUrl: 'env:CHANNEL_CHAT_URL' } },
    ],
  ])('accepts %s', async (_label, body) => {
    const client = await startService({ env: ENV, jobs: false });
    expect((await client.call('POST', '/channels', body)).status).toBe(201);
  });

  it.each([
    [
      'an smtp channel on another host',
      smtp('attacker.example.net'),
      'config.pass names env:CHANNEL_MAIL_PASS, which may be sent only to smtp.corp.example, mail.corp.example (CHANNEL_MAIL_PASS_DESTINATION), not to attacker.example.net',
    ],
    [
      'a URL of another scheme than the origin',
      hook('http://hooks.example.com/in'),
      'config.secret names env:CHANNEL_HOOK_KEY, which may be sent only to https://hooks.example.com (CHANNEL_HOOK_KEY_DESTINATION), not to hooks.example.com',
    ],
    [
      'a URL of another port than the origin',
      hook('https://hooks.example.com:8443/in'),
      'config.secret names env:CHANNEL_HOOK_KEY, which may be sent only to https://hooks.example.com (CHANNEL_HOOK_KEY_DESTINATION), not to hooks.example.com',
    ],
    [
      "a Slack URL variable as another host's password",
      smtp('attacker.example.net', 'env:CHANNEL_CHAT_URL'),
      'config.pass names env:CHANNEL_CHAT_URL, which may be sent only to hooks.slack.com (CHANNEL_CHAT_URL_DESTINATION), not to attacker.example.net',
    ],
    [
      'a variable bound to nothing',
      hook('https://hooks.example.com/in', 'env:CHANNEL_LOOSE'),
      'config.secret names env:CHANNEL_LOOSE, which is bound to no destination: set CHANNEL_LOOSE_DESTINATION to the hosts it may be sent to (hooks.example.com for this channel)',
    ],
    [
      'a binding named as a secret',
      hook('https://hooks.example.com/in', 'env:CHANNEL_HOOK_KEY_DESTINATION'),
      'config.secret names env:CHANNEL_HOOK_KEY_DESTINATION, which lists destinations: it is not a secret',
    ],
  ])('refuses %s, naming the variable and the host', async (_label, body, message) => {
    const client = await startService({ env: ENV, jobs: false });
    const res = await client.call('POST', '/channels', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'BAD_REQUEST', message });
    expect((await client.call('GET', '/channels')).body.data).toEqual([]);
  });

  it('checks a Slack URL variable against its binding, naming the host, never the URL', async () => {
    const client = await startService({
      env: { ...ENV, CHANNEL_CHAT_URL: 'https://collector.example.net/T0/B0/SLACK-TOKEN' },
      jobs: false,
    });
    const res = await client.call('POST', '/channels', {
      name: 'chat',
      provider: 'slack',
      config: { webhookUrl: 'env:CHANNEL_CHAT_URL' },
    });
    expect(res.body.error.message).toBe(
      'config.webhookUrl names env:CHANNEL_CHAT_URL, which may be sent only to hooks.slack.com (CHANNEL_CHAT_URL_DESTINATION), not to collector.example.net',
    );
    expect(JSON.stringify(res.body)).not.toContain('SLACK-TOKEN');
  });

  it('checks again before each send: a channel stored unbound fails without a login', async () => {
    let logins = 0;
    const onAuth: SMTPServerOptions['onAuth'] = (_auth, _session, cb) => {
      logins += 1;
      cb(null, { user: 'mailer' });
    };
    const server = await smtpPeer({ onAuth });
    const client = await startService({ env: ENV });
    const config = { host: server.host, port: server.port, from: 'ci@example.com' };
    const { channel } = await channelWithApp(
      client,
      { name: 'mail', provider: 'smtp', config },
      { target: 'dev@example.com' },
    );
    // As a channel written before bindings, or by hand, would be stored.
    await sql`update communication.channels
      set config = config || '{"user": "mailer", "pass": "env:CHANNEL_MAIL_PASS"}'::jsonb
      where id = ${channel.id}`.execute(client.svc.db.kysely);
    const sent = await client.call('POST', '/apps/app1/send', {
      channelId: 'mail',
      subject: 'Hi',
      text: 'Body',
    });
    expect(await client.settled('app1', sent.body.data.delivery.id)).toMatchObject({
      status: 'failed',
      attemptCount: 1,
      error:
        'config.pass names env:CHANNEL_MAIL_PASS, which may be sent only to smtp.corp.example, mail.corp.example (CHANNEL_MAIL_PASS_DESTINATION), not to 127.0.0.1',
    });
    expect(logins).toBe(0);
    expect(server.mails).toEqual([]);
  });

  it('sends a bound secret to its destination', async () => {
    const peer = await httpPeer(() => ({ status: 200 }));
    const client = await startService({
      env: { CHANNEL_HOOK_KEY: ENV.CHANNEL_HOOK_KEY, CHANNEL_HOOK_KEY_DESTINATION: peer.url },
    });
    await channelWithApp(client, hook(`${peer.url}/in`));
    const sent = await client.call('POST', '/apps/app1/send', { channelId: 'hook', text: 'x' });
    const done = await client.settled('app1', sent.body.data.delivery.id);
    expect(done.status).toBe('sent');
    expect(peer.requests).toHaveLength(1);
  });

  it.each([
    ['https://hooks.example.com/path', 'https://hooks.example.com/path'],
    ['ftp://files.example.com', 'ftp://files.example.com'],
    ['not a host!', 'host!'],
    [' , ', ' , '],
  ])('stops start-up on a bad binding (%j)', (value, entry) => {
    expect(() => communication.config({ CHANNEL_X_DESTINATION: value })).toThrow(
      `Invalid configuration: CHANNEL_X_DESTINATION must list host names or http(s) origins (https://host[:port], no path), separated by commas; got "${entry}"`,
    );
  });
});
