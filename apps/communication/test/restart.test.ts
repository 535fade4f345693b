import { openDatabase } from '@platform/db';
import { sharedPostgres, sleep, testDatabase } from '@platform/testing';
import { channelWithApp, httpPeer, smtpPeer, startService, type Client } from './helpers';

it('sends after a restart a delivery accepted before it', async () => {
  // The first connection gets no greeting: the first instance stops before anything is sent.
  let connections = 0;
  const smtp = await smtpPeer({
    onConnect: (_session, cb) => (++connections === 1 ? undefined : cb()),
  });
  const db = await testDatabase();
  const first = await startService({ db, jobs: { pollMs: 20, leaseMs: 300, drainMs: 50 } });
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
  await channelWithApp(
    first,
    { name: 'mail', provider: 'smtp', config },
    { target: 'dev@example.com' },
  );
  const res = await first.call('POST', '/apps/app1/send', {
    channelId: 'mail',
    subject: 'Hi',
    text: 'Kept',
  });
  expect(res.status).toBe(202);
  while (connections === 0) await sleep(10);
  await first.svc.app.close();
  expect(smtp.mails).toEqual([]);

  const second = await startService({ db, jobs: { pollMs: 20 } });
  try {
    const sent = await second.settled('app1', res.body.data.delivery.id);
    expect(sent).toMatchObject({ status: 'sent', attemptCount: 2 });
    expect(sent.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
      'interrupted',
      'sent',
    ]);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].raw).toContain('Kept');
  } finally {
    await second.svc.app.close();
    await db.close();
  }
});

it('never sends one delivery twice from two instances on one PostgreSQL', async () => {
  const server = await sharedPostgres();
  const databases = [
    await openDatabase({ url: server.url }),
    await openDatabase({ url: server.url }),
  ];
  const instances: Client[] = [];
  try {
    // Each delivery's first attempt fails (500): its retry is claimed by whichever instance polls first.
    const seen = new Map<string, number>();
    const peer = await httpPeer((req) => {
      const id = String(req.headers['x-platform-delivery']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      return seen.get(id) === 1 ? { status: 500 } : { status: 200, body: `{"id":"${id}"}` };
    });
    const env = { CHANNEL_HOOK_SECRET: 'whsec-0123456789abcdef' };
    for (const db of databases)
      instances.push(await startService({ db, env, jobs: { pollMs: 10 } }));
    const config = { url: peer.url, secret: 'env:CHANNEL_HOOK_SECRET' };
    await channelWithApp(instances[0], { name: 'hook', provider: 'webhook', config });

    const accepted = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        instances[i % 2].call('POST', '/apps/app1/send', {
          channelId: 'hook',
          text: `message ${i}`,
        }),
      ),
    );
    const ids = accepted.map((r) => r.body.data.delivery.id as string);
    const settled = await Promise.all(
      ids.map((id, i) => instances[(i + 1) % 2].settled('app1', id, 20_000)),
    );
    for (const delivery of settled)
      expect(delivery).toMatchObject({
        status: 'sent',
        attemptCount: 2,
        providerMessageId: delivery.id,
      });
    expect([...seen.values()]).toEqual(Array(30).fill(2));
    expect(peer.requests.filter((r) => r.body.includes('message'))).toHaveLength(60);
  } finally {
    for (const instance of instances) await instance.svc.app.close();
    for (const db of databases) await db.close();
    await server.remove();
  }
}, 60_000);
