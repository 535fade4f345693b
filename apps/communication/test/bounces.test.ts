import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import { communicationConfig } from '../src/index';
import { channelWithApp, smtpPeer, startService } from './helpers';

// Bounces over SMTP: mails go out with a signed return path naming their delivery (VERP), and
// the delivery status notifications that real mail systems wrote (fixtures/dsn: Postfix,
// Microsoft 365, OpenSMTPD, unmodified) come back to the service's own SMTP server, handed over
// by a real SMTP client (nodemailer) as a reporting mail system does, with the null sender.

const SECRET = 'the-events-secret-of-the-bounce-tests';
const dsn = (name: string) => readFileSync(join(__dirname, 'fixtures/dsn', `${name}.eml`));

async function freePort() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Hands `raw` to the bounce server for `to`, as a mail system returns a DSN. */
async function relay(port: number, to: string, raw: Buffer | string) {
  const transport = createTransport({ host: '127.0.0.1', port, ignoreTLS: true });
  try {
    return await transport.sendMail({ envelope: { from: '', to: [to] }, raw });
  } finally {
    transport.close();
  }
}

/** The service receiving DSNs on a free port, an smtp channel `mail` and app1 on it. */
async function bounceWorld() {
  const port = await freePort();
  const smtp = await smtpPeer();
  const client = await startService({
    env: {
      COMMUNICATION_EVENTS_SECRET: SECRET,
      COMMUNICATION_BOUNCE_ADDRESS: 'bounces@platform.test',
      COMMUNICATION_BOUNCE_SMTP_PORT: String(port),
      COMMUNICATION_BOUNCE_SMTP_HOST: '127.0.0.1',
    },
  });
  const config = { host: smtp.host, port: smtp.port, from: 'Platform <noreply@example.com>' };
  await channelWithApp(client, { name: 'mail', provider: 'smtp', config });
  /** Sends to `to`; answers the delivery once sent and the return path it went out with. */
  const send = async (to: string) => {
    const res = await client.call('POST', '/apps/app1/send', {
      channelId: 'mail',
      to,
      subject: 'Your build',
      text: 'It passed.',
    });
    expect(res.status).toBe(202);
    const sent = await client.settled('app1', res.body.data.delivery.id);
    expect(sent.status).toBe('sent');
    const mail = smtp.mails.find((m) => m.raw.includes(`X-Platform-Delivery: ${sent.id}`))!;
    return { id: sent.id as string, returnPath: mail.from };
  };
  const delivery = async (id: string) =>
    (await client.call('GET', `/apps/app1/deliveries/${id}`)).body.data;
  return { port, client, send, delivery, smtp };
}

it('sends from a signed return path; a hard bounce marks the delivery and suppresses the address', async () => {
  const w = await bounceWorld();
  const { id, returnPath } = await w.send('kijitora@example.org');
  expect(returnPath).toMatch(/^bounces\+[0-9a-f]+\.[0-9a-f]{16}@platform\.test$/);
  expect(returnPath).toContain(Buffer.from(id).toString('hex'));
  // The From header stays the channel's.
  expect(w.smtp.mails[0].raw).toMatch(/^From: Platform <noreply@example.com>$/m);

  // Postfix: failed, 5.1.1, for the address sent to (Original-Recipient; forwarded elsewhere).
  const accepted = await relay(w.port, returnPath, dsn('lhost-postfix-01'));
  expect(accepted.accepted).toEqual([returnPath]);
  expect(await w.delivery(id)).toMatchObject({
    status: 'bounced',
    error: expect.stringMatching(
      /^Hard bounce from kijitora@example\.org: 5\.1\.1 x-unix; procmail/,
    ),
  });
  const suppressions = (await w.client.call('GET', '/suppressions')).body.data;
  expect(suppressions).toEqual([
    expect.objectContaining({
      address: 'kijitora@example.org',
      reason: 'hard bounce',
      deliveryId: id,
    }),
  ]);
  const again = await w.client.call('POST', '/apps/app1/send', {
    channelId: 'mail',
    to: 'kijitora@example.org',
    subject: 'Again',
    text: 'x',
  });
  expect(again.status).toBe(400);

  // Microsoft 365's report (the notice as multipart/alternative), 5.1.0: hard as well.
  const other = await w.send('kijitora@example.com');
  await relay(w.port, other.returnPath, dsn('lhost-office365-03'));
  expect(await w.delivery(other.id)).toMatchObject({
    status: 'bounced',
    error: expect.stringMatching(
      /^Hard bounce from kijitora@example\.com: 5\.1\.0 smtp;550 5\.1\.0/,
    ),
  });
});

it('a soft bounce marks the delivery without suppressing; a delay or a mail without a report changes nothing', async () => {
  const w = await bounceWorld();
  const soft = await w.send('kijitora@example.org');
  await relay(w.port, soft.returnPath, dsn('lhost-postfix-05'));
  expect(await w.delivery(soft.id)).toMatchObject({
    status: 'bounced',
    error: expect.stringMatching(/^Soft bounce from kijitora@example\.org: 4\.1\.1/),
  });
  expect((await w.client.call('GET', '/suppressions')).body.data).toEqual([]);

  const delayed = await w.send('nekochan@libsisimai.org');
  await relay(w.port, delayed.returnPath, dsn('lhost-opensmtpd-06'));
  const autoReply =
    'From: nekochan@libsisimai.org\r\nSubject: Out of office\r\n\r\nBack Monday.\r\n';
  await relay(w.port, delayed.returnPath, autoReply);
  expect(await w.delivery(delayed.id)).toMatchObject({ status: 'sent', error: null });
});

it('refuses recipients that are not signed return paths of deliveries', async () => {
  const w = await bounceWorld();
  const { id, returnPath } = await w.send('kijitora@example.org');
  const forged = returnPath.replace(/\.[0-9a-f]{16}@/, '.0123456789abcdef@');
  const anotherId = returnPath.replace(Buffer.from(id).toString('hex'), Buffer.from('dl_other12').toString('hex')); // prettier-ignore
  for (const to of [forged, anotherId, 'bounces@platform.test', 'postmaster@platform.test'])
    await expect(relay(w.port, to, dsn('lhost-postfix-01'))).rejects.toMatchObject({
      responseCode: 550,
    });
  // The same return path in upper case (a mail system that changed its case) still names it.
  await relay(w.port, returnPath.toUpperCase(), dsn('lhost-postfix-01'));
  expect((await w.delivery(id)).status).toBe('bounced');
});

it('refuses a bounce address without the secret that signs it, and a port without an address', () => {
  expect(() =>
    communicationConfig({ COMMUNICATION_BOUNCE_ADDRESS: 'bounces@platform.test' }),
  ).toThrow(
    'Invalid configuration: COMMUNICATION_BOUNCE_ADDRESS needs COMMUNICATION_EVENTS_SECRET (it signs the return paths)',
  );
  expect(() =>
    communicationConfig({
      COMMUNICATION_EVENTS_SECRET: SECRET,
      COMMUNICATION_BOUNCE_SMTP_PORT: '2525',
    }),
  ).toThrow(
    'Invalid configuration: COMMUNICATION_BOUNCE_SMTP_PORT needs COMMUNICATION_BOUNCE_ADDRESS',
  );
  expect(() =>
    communicationConfig({
      COMMUNICATION_EVENTS_SECRET: SECRET,
      COMMUNICATION_BOUNCE_ADDRESS: 'not an address',
    }),
  ).toThrow(/COMMUNICATION_BOUNCE_ADDRESS must be an email address/);
  expect(() =>
    communicationConfig({
      COMMUNICATION_EVENTS_SECRET: SECRET,
      COMMUNICATION_BOUNCE_ADDRESS: `${'b'.repeat(30)}@platform.test`,
    }),
  ).toThrow(/its local part at most 24 characters/);
});
