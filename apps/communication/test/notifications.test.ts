import { sql } from '@platform/db';
import { testDatabase } from '@platform/testing';
import { channelWithApp, httpPeer, smtpPeer, startService, type Client } from './helpers';

// Issue 41: templates in locales, preferences, one-click unsubscribe, fallback between channels.

const UNSUBSCRIBE_ENV = {
  COMMUNICATION_PUBLIC_URL: 'https://platform.example.com',
  COMMUNICATION_UNSUBSCRIBE_SECRET: 'unsubscribe-secret-of-at-least-32-characters',
};

const WELCOME = {
  name: 'welcome',
  category: 'onboarding',
  schema: {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, count: { type: 'integer' } },
  },
  fallbackLocale: 'en',
  sampleData: { name: 'Sample' },
  locales: {
    en: {
      subject: 'Welcome {{ name }}',
      text: 'Hello {{ name }}, you have {{ count | default: 0 }} builds',
      html: '<p>Hello <b>{{ name }}</b></p>',
      slack: {
        text: 'Hi *{{ name }}*',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '{{ name }}' } }],
      },
    },
    de: {
      subject: 'Willkommen {{ name }}',
      text: 'Hallo {{ name }}',
      html: '<p>Hallo {{ name }}</p>',
    },
  },
};

const send = (client: Client, body: object) => client.call('POST', '/apps/app1/send', body);

describe('templates', () => {
  let client: Client;
  beforeEach(async () => {
    client = await startService();
    await channelWithApp(client, { name: 'log', provider: 'log' }, { target: 'ann@example.com' });
    const res = await client.call('POST', '/apps/app1/templates', WELCOME);
    expect(res.status).toBe(201);
  });

  it('renders the locale asked for, its language, or the fallback; HTML escaped, text not', async () => {
    const sent = async (locale: string | undefined, name: string) => {
      const res = await send(client, {
        channelId: 'log',
        template: 'Welcome',
        data: { name },
        locale,
      });
      expect(res.status).toBe(202);
      return client.settled('app1', res.body.data.delivery.id);
    };
    const de = await sent('de-CH', 'Bea');
    expect(de).toMatchObject({
      subject: 'Willkommen Bea',
      text: 'Hallo Bea',
      locale: 'de',
      templateVersion: 1,
      category: 'onboarding',
      recipient: 'ann@example.com',
    });
    const fr = await sent('fr', '<script>x</script> & co');
    expect(fr).toMatchObject({ locale: 'en', subject: 'Welcome <script>x</script> & co' });
    expect(fr.text).toBe('Hello <script>x</script> & co, you have 0 builds');
    expect(fr.html).toBe('<p>Hello <b>&lt;script&gt;x&lt;/script&gt; &amp; co</b></p>');
    expect(fr.slack).toEqual({
      text: 'Hi *<script>x</script> & co*',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '<script>x</script> & co' } }],
    });
  });

  it('refuses data that fails the schema, naming the field, and sends nothing', async () => {
    const missing = await send(client, { channelId: 'log', template: 'welcome', data: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(
      'data does not fit the schema of template welcome: data.name is required',
    );
    const wrong = await send(client, {
      channelId: 'log',
      template: 'welcome',
      data: { name: 'a', count: 'x' },
    });
    expect(wrong.body.error.message).toContain('data.count must be an integer');
    expect((await send(client, { channelId: 'log', template: 'welcome', text: 'x' })).status).toBe(
      400,
    );
    expect((await send(client, { channelId: 'log', template: 'nope' })).body.error.message).toBe(
      'Template not found: nope',
    );
    expect((await client.call('GET', '/apps/app1/deliveries')).body.data).toEqual([]);
  });

  it('versions each update; sends record the version; earlier versions stay readable', async () => {
    const changed = await client.call('PUT', '/apps/app1/templates/welcome', {
      locales: { en: { subject: 'Hi {{ name }}', text: 'v2 {{ name }}' } },
    });
    expect(changed.body.data).toMatchObject({
      version: 2,
      category: 'onboarding',
      fallbackLocale: 'en',
    });
    const res = await send(client, { channelId: 'log', template: 'welcome', data: { name: 'Cy' } });
    const sent = await client.settled('app1', res.body.data.delivery.id);
    expect(sent).toMatchObject({ text: 'v2 Cy', templateVersion: 2 });
    const v1 = await client.call('GET', '/apps/app1/templates/welcome?version=1');
    expect(v1.body.data.locales.de.text).toBe('Hallo {{ name }}');
    expect((await client.call('GET', '/apps/app1/templates/welcome?version=9')).status).toBe(404);
    // A fallback locale without its form changes nothing.
    const bad = await client.call('PUT', '/apps/app1/templates/welcome', { fallbackLocale: 'fr' });
    expect(bad.body.error.message).toBe('fallbackLocale fr has no entry in locales (en)');
    expect((await client.call('GET', '/apps/app1/templates/welcome')).body.data.version).toBe(2);
  });

  it('previews with sample data; refuses forms that do not parse and reads no file', async () => {
    const preview = await client.call('POST', '/apps/app1/templates/welcome/preview', {
      locale: 'de',
    });
    expect(preview.body.data).toMatchObject({
      locale: 'de',
      version: 1,
      subject: 'Willkommen Sample',
    });
    const broken = await client.call('POST', '/apps/app1/templates', {
      ...WELCOME,
      name: 'broken',
      locales: { en: { text: 'Hello {% if %}' } },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toMatch(/^locales\.en\.text is not a valid template/);
    const include = await client.call('POST', '/apps/app1/templates', {
      ...WELCOME,
      name: 'include',
      locales: { en: { text: "{% include '/etc/passwd' %}" } },
    });
    expect(include.status).toBe(201);
    const read = await client.call('POST', '/apps/app1/templates/include/preview', {});
    expect(read.status).toBe(400);
    expect(JSON.stringify(read.body)).not.toContain('root:');
    expect((await client.call('POST', '/apps/app1/templates', WELCOME)).status).toBe(409);
  });
});

describe('preferences and unsubscribe', () => {
  it('skips opted-out channels, keeps required categories, unsubscribes through the signed link', async () => {
    const smtp = await smtpPeer();
    const client = await startService({ env: UNSUBSCRIBE_ENV });
    const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
    await channelWithApp(
      client,
      { name: 'mail', provider: 'smtp', config },
      { target: 'ann@example.com' },
    );
    await channelWithApp(client, { name: 'log', provider: 'log' }, { target: 'ann@example.com' });
    const security = await client.call('PUT', '/preferences', {
      recipient: 'ann@example.com',
      preferences: [{ category: 'security', channel: 'smtp', enabled: false }],
    });
    expect(security.status).toBe(400);
    expect(security.body.error.message).toContain('category security is required');

    const mail = {
      channels: ['mail', 'log'],
      subject: 'News',
      text: 'Read this',
      category: 'news',
    };
    const first = await send(client, mail);
    const delivered = await client.settled('app1', first.body.data.delivery.id);
    expect(delivered).toMatchObject({ status: 'sent', provider: 'smtp' });
    const raw = smtp.mails[0].raw.replace(/\r\n[ \t]+/g, ' ');
    const link = /^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1];
    expect(link).toMatch(
      /^https:\/\/platform\.example\.com\/api\/v1\/communication\/unsubscribe\?token=/,
    );
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    const path = `/unsubscribe${new URL(link!).search}`;

    const page = await client.svc.app.inject({
      method: 'GET',
      url: `/api/v1/communication${path}`,
    });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<b>news</b> on <b>mail</b> to <b>ann@example.com</b>');
    // Opening the page changed nothing; a tampered token is refused.
    expect(
      (await client.call('GET', '/preferences?recipient=ann@example.com')).body.data.preferences,
    ).toEqual([]);
    const tampered = await client.svc.app.inject({
      method: 'POST',
      url: `/api/v1/communication${path}x`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(tampered.statusCode).toBe(400);
    // RFC 8058: what a mail client sends.
    const oneClick = await client.svc.app.inject({
      method: 'POST',
      url: `/api/v1/communication${path}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.json().data).toEqual({
      recipient: 'ann@example.com',
      category: 'news',
      channel: 'mail',
      enabled: false,
    });

    // Next time the mail channel is skipped for news, the log channel used; security still mails.
    const second = await send(client, mail);
    const routed = await client.settled('app1', second.body.data.delivery.id);
    expect(routed).toMatchObject({ status: 'sent', provider: 'log' });
    expect(routed.route[0]).toMatchObject({
      channel: 'mail',
      skipped: 'ann@example.com opted out of news on mail',
    });
    const onlyMail = await send(client, { ...mail, channels: ['mail'] });
    expect(onlyMail.body.data.delivery).toMatchObject({
      status: 'skipped',
      error: 'ann@example.com opted out of news on mail',
    });
    const secure = await send(client, { ...mail, channels: ['mail'], category: 'security' });
    expect((await client.settled('app1', secure.body.data.delivery.id)).status).toBe('sent');
    expect(smtp.mails).toHaveLength(2);
    expect(smtp.mails[1].raw).not.toContain('List-Unsubscribe');
  });
});

it('falls back from a failing webhook channel to smtp, every attempt on record', async () => {
  const smtp = await smtpPeer();
  const hook = await httpPeer(() => ({ status: 503 }));
  const db = await testDatabase();
  const client = await startService({
    db,
    env: { COMMUNICATION_MAX_ATTEMPTS: '2', CHANNEL_HOOK_SECRET: 'whsec-0123456789abcdef' },
  });
  await channelWithApp(client, {
    name: 'hook',
    provider: 'webhook',
    config: { url: hook.url, secret: 'env:CHANNEL_HOOK_SECRET' },
  });
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
  const mail = await channelWithApp(
    client,
    { name: 'mail', provider: 'smtp', config },
    { target: 'ops@example.com' },
  );
  const res = await send(client, {
    channels: ['hook', 'mail'],
    subject: 'Down',
    text: 'Fell back',
  });
  const sent = await client.settled('app1', res.body.data.delivery.id);
  expect(sent).toMatchObject({
    status: 'sent',
    provider: 'smtp',
    channelId: mail.channel.id,
    target: 'ops@example.com',
  });
  expect(
    sent.attempts.map((a: { outcome: string; error: string | null }) => [
      a.outcome,
      a.error?.replace(/:.*;/, ':;') ?? null,
    ]),
  ).toEqual([
    ['retry', expect.stringContaining('503')],
    ['failed', expect.stringContaining('falling back to channel mail')],
    ['sent', null],
  ]);
  expect(hook.requests).toHaveLength(2);
  expect(smtp.mails).toHaveLength(1);

  // With no channel left, the delivery fails and the ledger is told (a durable job).
  const alone = await send(client, { channelId: 'hook', text: 'Nowhere' });
  expect((await client.settled('app1', alone.body.data.delivery.id)).status).toBe('failed');
  const { rows } = await sql<{ payload: { action: string; resource: string } }>`
    select payload from communication.jobs where kind = 'ledger-event'`.execute(db.kysely);
  expect(rows.map((r) => r.payload)).toEqual([
    expect.objectContaining({
      action: 'communication.delivery.failed',
      resource: `communication.delivery:${alone.body.data.delivery.id}`,
    }),
  ]);
  await client.svc.app.close();
  await db.close();
});
