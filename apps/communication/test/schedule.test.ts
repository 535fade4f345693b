import { sql } from '@platform/db';
import { eventually, sleep, testDatabase } from '@platform/testing';
import { channelWithApp, smtpPeer, startService } from './helpers';

// Issue 41: digests and delayed sends wait in the database; a periodic sweep hands them over.
const FAST_SCHEDULE = { COMMUNICATION_SCHEDULE_MS: '50' };

it('collects ten events into one mail per recipient, through the digest form', async () => {
  const smtp = await smtpPeer();
  const db = await testDatabase();
  const client = await startService({ db, env: FAST_SCHEDULE });
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
  await channelWithApp(client, { name: 'mail', provider: 'smtp', config });
  const template = await client.call('POST', '/apps/app1/templates', {
    name: 'build',
    category: 'builds',
    schema: { type: 'object', required: ['build'], properties: { build: { type: 'integer' } } },
    fallbackLocale: 'en',
    locales: { en: { subject: 'Build {{ build }}', text: 'Build {{ build }} passed' } },
    digest: {
      windowSeconds: 3600,
      locales: {
        en: {
          subject: '{{ count }} builds passed',
          text: '{% for item in items %}build-{{ item.build }};{% endfor %}',
        },
      },
    },
  });
  expect(template.status).toBe(201);
  const build = (n: number) =>
    client.call(
      'POST',
      '/apps/app1/send',
      { channelId: 'mail', template: 'build', data: { build: n }, to: 'dev@example.com' },
      { 'idempotency-key': `build-${n}` },
    );
  // Ten events, three of them sent twice at once (a client retrying): each joins once.
  const all = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3].map(build));
  expect(all.map((s) => s.status)).toEqual(Array(13).fill(202));
  expect(all.filter((s) => s.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
  const sends = all.filter((s) => s.headers['idempotent-replayed'] !== 'true');
  expect(sends.map((s) => s.body.data.digest.items).sort((a, b) => a - b)).toEqual(
    Array.from({ length: 10 }, (_, i) => i + 1),
  );
  expect(new Set(all.map((s) => s.body.data.digest.id)).size).toBe(1);
  // A key again with another request: 409, nothing joined.
  const other = await client.call(
    'POST',
    '/apps/app1/send',
    { channelId: 'mail', template: 'build', data: { build: 99 }, to: 'dev@example.com' },
    { 'idempotency-key': 'build-1' },
  );
  expect([other.status, other.body.error.message]).toEqual([
    409,
    expect.stringMatching(
      /^Idempotency-Key build-1 was sent before with a different request \(digest dg_/,
    ),
  ]);
  // Every send of the digest answers its one delivery, sent at the flush.
  const ids = new Set(sends.map((s) => s.body.data.delivery.id));
  expect(ids.size).toBe(1);
  expect(sends[0].body.data.delivery).toMatchObject({
    status: 'accepted',
    sendAt: sends[0].body.data.digest.flushAt,
  });
  // Another recipient has a digest of their own.
  await client.call('POST', '/apps/app1/send', {
    channelId: 'mail',
    template: 'build',
    data: { build: 11 },
    to: 'ops@example.com',
  });

  await sleep(300);
  expect(smtp.mails).toEqual([]);
  // The window ends (an hour, cut short here rather than waited for).
  await sql`update communication.digests set flush_at = now()`.execute(db.kysely);
  await eventually(() => expect(smtp.mails).toHaveLength(2), { timeout: 10_000 });
  const dev = smtp.mails.find((m) => m.to[0] === 'dev@example.com')!;
  expect(dev.raw).toContain('Subject: 10 builds passed');
  // Every item once, in the order the sends arrived (concurrent here).
  const builds = [...dev.raw.matchAll(/build-(\d+);/g)].map((m) => Number(m[1]));
  expect(builds.sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  const sent = await client.settled('app1', [...ids][0]);
  expect(sent).toMatchObject({
    status: 'sent',
    templateVersion: 1,
    subject: '10 builds passed',
    metadata: { items: 10 },
  });
  // After the flush, a repeat still answers its digest's delivery (sent now) and joins nothing.
  const late = await build(4);
  expect(late.headers['idempotent-replayed']).toBe('true');
  expect(late.body.data).toMatchObject({ delivery: { id: sent.id, status: 'sent' }, digest: { id: all[0].body.data.digest.id } }); // prettier-ignore
  const { rows } = await sql<{ n: string }>`select count(*) as n from communication.digests`.execute(db.kysely); // prettier-ignore
  expect(Number(rows[0].n)).toBe(0);
  await client.svc.app.close();
  await db.close();
});

it('keeps a delayed send through a restart and sends it when due, not before', async () => {
  const smtp = await smtpPeer();
  const db = await testDatabase();
  const first = await startService({ db, env: FAST_SCHEDULE });
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
  await channelWithApp(
    first,
    { name: 'mail', provider: 'smtp', config },
    { target: 'dev@example.com' },
  );
  const sendAt = new Date(Date.now() + 1500).toISOString();
  const res = await first.call('POST', '/apps/app1/send', {
    channelId: 'mail',
    subject: 'Later',
    text: 'Kept over a restart',
    sendAt,
  });
  expect(res.status).toBe(202);
  expect(res.body.data.delivery).toMatchObject({ status: 'accepted', sendAt });
  await first.svc.app.close();
  expect(smtp.mails).toEqual([]);

  const second = await startService({ db, env: FAST_SCHEDULE });
  try {
    const sent = await second.settled('app1', res.body.data.delivery.id);
    expect(sent).toMatchObject({ status: 'sent', attemptCount: 1 });
    expect(new Date(sent.attempts[0].at).getTime()).toBeGreaterThanOrEqual(Date.parse(sendAt));
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].raw).toContain('Kept over a restart');
  } finally {
    await second.svc.app.close();
    await db.close();
  }
});

it('flushes each digest on its own: opted out (then or since) skipped, a race retried, all cleared', async () => {
  const smtp = await smtpPeer();
  const db = await testDatabase();
  const client = await startService({ db, env: FAST_SCHEDULE });
  const config = { host: smtp.host, port: smtp.port, from: 'ci@example.com' };
  await channelWithApp(client, { name: 'mail', provider: 'smtp', config });
  await client.call('POST', '/apps/app1/templates', {
    name: 'build',
    category: 'builds',
    schema: { type: 'object' },
    fallbackLocale: 'en',
    locales: { en: { subject: 'Build', text: 'Build' } },
    digest: { windowSeconds: 3600, locales: { en: { subject: 'Builds', text: '{{ count }}' } } },
  });
  const optOut = (recipient: string) =>
    client.call('PUT', '/preferences', {
      recipient,
      preferences: [{ category: 'builds', channel: 'mail', enabled: false }],
    });
  const digest = async (to: string) => {
    const res = await client.call('POST', '/apps/app1/send', {
      channelId: 'mail',
      template: 'build',
      data: {},
      to,
    });
    expect(res.status).toBe(202);
    return res.body.data;
  };
  // Opted out at the send: the digest's delivery is skipped from the start.
  await optOut('ann@example.com');
  const ann = await digest('ann@example.com');
  expect(ann.delivery.status).toBe('skipped');
  const bob = await digest('bob@example.com');
  // A delayed send, its recipient opted out before it is due.
  const later = await client.call('POST', '/apps/app1/send', {
    channelId: 'mail',
    subject: 'Later',
    text: 'Later',
    category: 'builds',
    to: 'cid@example.com',
    sendAt: new Date(Date.now() + 3600_000).toISOString(),
  });
  await optOut('cid@example.com');
  // A flush closes the open digest between a send's insert (which found it) and its select.
  await sql`create function communication.close_first() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from communication.digests where recipient = new.recipient) then
        delete from communication.digests where recipient = new.recipient;
        return null;
      end if;
      return new;
    end $$`.execute(db.kysely);
  await sql`create trigger close_first before insert on communication.digests for each row
    when (new.recipient = 'race@example.com') execute function communication.close_first()`.execute(
    db.kysely,
  );
  const race = await digest('race@example.com');
  const raced = await digest('race@example.com');
  expect(raced.digest.id).not.toBe(race.digest.id);

  // Ann's digest first: it must not hold up the others.
  await sql`update communication.digests set flush_at = now() - interval '1 minute' where recipient = 'ann@example.com'`.execute(db.kysely); // prettier-ignore
  await sql`update communication.digests set flush_at = now() where recipient <> 'ann@example.com'`.execute(db.kysely); // prettier-ignore
  await sql`update communication.deliveries set send_at = now() where id = ${later.body.data.delivery.id}`.execute(db.kysely); // prettier-ignore
  await eventually(() => expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(['bob@example.com', 'race@example.com']), { timeout: 10_000 }); // prettier-ignore
  expect((await client.settled('app1', bob.delivery.id)).status).toBe('sent');
  const skipped = await client.settled('app1', later.body.data.delivery.id);
  expect(skipped).toMatchObject({
    status: 'skipped',
    error: 'cid@example.com opted out of builds on mail before it was due',
  });
  await eventually(async () => {
    const { rows } = await sql<{ n: string }>`select count(*) as n from communication.digests`.execute(db.kysely); // prettier-ignore
    expect(Number(rows[0].n)).toBe(0);
  });
  const items = await sql<{ n: string }>`select count(*) as n from communication.digest_items`.execute(db.kysely); // prettier-ignore
  expect(Number(items.rows[0].n)).toBe(0);
  expect((await client.settled('app1', ann.delivery.id)).error).toContain('ann@example.com opted out of builds on mail'); // prettier-ignore
  const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where schemaname = 'communication'`.execute(db.kysely); // prettier-ignore
  expect(indexes.rows.map((r) => r.indexname)).toEqual(
    expect.arrayContaining(['deliveries_provider_message_idx', 'digests_due_idx', 'inbox_messages_unread_idx']), // prettier-ignore
  );
  await client.svc.app.close();
  await db.close();
});
