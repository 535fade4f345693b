import type { SMTPServerOptions } from 'smtp-server';
import { sleep } from '@platform/testing';
import { channelWithApp, smtpPeer, smtpReply, startService, sendMail } from './helpers';

const MESSAGE = {
  channelId: 'mail',
  subject: 'Build 42 passed',
  text: 'All 311 tests passed.',
  html: '<p>All <b>311</b> tests passed.</p>',
};

it('delivers the message with its subject, text, html, sender and recipients', async () => {
  const smtp = await smtpPeer();
  const client = await startService();
  const config = { host: smtp.host, port: smtp.port, from: 'CI <ci@example.com>' };
  await channelWithApp(
    client,
    { name: 'mail', provider: 'smtp', config },
    { target: 'dev@example.com, ops@example.com' },
  );
  const res = await client.call('POST', '/apps/app1/send', MESSAGE);
  expect(res.body.data).toMatchObject({ provider: 'smtp', live: true });
  const sent = await client.settled('app1', res.body.data.delivery.id);
  expect(sent).toMatchObject({ status: 'sent', attemptCount: 1, error: null });
  expect(smtp.mails).toHaveLength(1);
  const [mail] = smtp.mails;
  expect(mail.from).toBe('ci@example.com');
  expect(mail.to).toEqual(['dev@example.com', 'ops@example.com']);
  expect(mail.raw).toContain('Subject: Build 42 passed');
  expect(mail.raw).toMatch(/^From: CI <ci@example.com>$/m);
  expect(mail.raw).toMatch(/^To: dev@example.com, ops@example.com$/m);
  expect(mail.raw).toContain('All 311 tests passed.');
  expect(mail.raw).toContain('<p>All <b>311</b> tests passed.</p>');
  expect(mail.raw).toContain(`X-Platform-Delivery: ${sent.id}`);
  // The message id is the Message-ID of the message that arrived.
  expect(mail.raw).toContain(`Message-ID: ${sent.providerMessageId}`);
});

describe('authentication', () => {
  const onAuth: SMTPServerOptions['onAuth'] = (auth, _session, cb) =>
    auth.username === 'mailer' && auth.password === 'right-password-123'
      ? cb(null, { user: 'mailer' })
      : cb(smtpReply(535, 'Authentication credentials invalid'));

  it('logs in with a password from an env reference', async () => {
    const smtp = await smtpPeer({ onAuth });
    const client = await startService({ env: { CHANNEL_SMTP_PASS: 'right-password-123' } });
    const res = await sendMail(client, smtp, 'env:CHANNEL_SMTP_PASS', MESSAGE);
    expect(await client.settled('app1', res.body.data.delivery.id)).toMatchObject({
      status: 'sent',
    });
    expect(smtp.mails.map((m) => m.user)).toEqual(['mailer']);
  });

  it('logs in with a literal password stored encrypted (authentication on)', async () => {
    const smtp = await smtpPeer({ onAuth });
    const client = await startService({ auth: true });
    const res = await sendMail(client, smtp, 'right-password-123', MESSAGE);
    expect(await client.settled('app1', res.body.data.delivery.id)).toMatchObject({
      status: 'sent',
    });
    expect(smtp.mails).toHaveLength(1);
  });

  it('fails at once, without retrying, on a wrong password (535)', async () => {
    const smtp = await smtpPeer({ onAuth });
    const client = await startService({ env: { CHANNEL_SMTP_PASS: 'wrong' } });
    const res = await sendMail(client, smtp, 'env:CHANNEL_SMTP_PASS', MESSAGE);
    const failed = await client.settled('app1', res.body.data.delivery.id);
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 1 });
    expect(failed.error).toMatch(/^SMTP 127\.0\.0\.1 answered 535/);
    expect(failed.error).not.toContain('wrong');
  });
});

it('retries a server that answers 451 (try again later), then accepts', async () => {
  let refusals = 0;
  const smtp = await smtpPeer({
    onRcptTo: (_address, _session, cb) =>
      refusals++ < 2 ? cb(smtpReply(451, 'Greylisted, try again later')) : cb(),
  });
  const client = await startService();
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
  await channelWithApp(
    client,
    { name: 'mail', provider: 'smtp', config },
    { target: 'dev@example.com' },
  );
  const res = await client.call('POST', '/apps/app1/send', MESSAGE);
  const sent = await client.settled('app1', res.body.data.delivery.id);
  expect(sent).toMatchObject({ status: 'sent', attemptCount: 3, error: null });
  expect(sent.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
    'retry',
    'retry',
    'sent',
  ]);
  expect(sent.attempts[0].error).toMatch(/^SMTP 127\.0\.0\.1 answered 451/);
  expect(smtp.mails).toHaveLength(1);
});

it('does not retry a server that refuses with 550', async () => {
  let calls = 0;
  const smtp = await smtpPeer({
    onRcptTo: (_address, _session, cb) => {
      calls += 1;
      cb(smtpReply(550, 'No such user here'));
    },
  });
  const client = await startService();
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
  await channelWithApp(
    client,
    { name: 'mail', provider: 'smtp', config },
    { target: 'nobody@example.com' },
  );
  const res = await client.call('POST', '/apps/app1/send', MESSAGE);
  const failed = await client.settled('app1', res.body.data.delivery.id);
  expect(failed).toMatchObject({ status: 'failed', attemptCount: 1 });
  expect(failed.error).toMatch(/550/);
  expect(failed.attempts).toEqual([expect.objectContaining({ number: 1, outcome: 'failed' })]);
  await sleep(200);
  expect(calls).toBe(1);
});

it('fails a send whose env reference is not set, naming it, and sends nothing', async () => {
  const smtp = await smtpPeer();
  const client = await startService();
  const config = {
    host: smtp.host,
    port: smtp.port,
    from: 'ci@example.com',
    user: 'mailer',
    pass: 'env:CHANNEL_SMTP_PASS',
  };
  await channelWithApp(
    client,
    { name: 'mail', provider: 'smtp', config },
    { target: 'dev@example.com' },
  );
  const res = await client.call('POST', '/apps/app1/send', MESSAGE);
  expect(res.status).toBe(202);
  const failed = await client.settled('app1', res.body.data.delivery.id);
  expect(failed).toMatchObject({
    status: 'failed',
    attemptCount: 1,
    error: 'config.pass names env:CHANNEL_SMTP_PASS, which is not set',
  });
  expect(smtp.mails).toEqual([]);
});
