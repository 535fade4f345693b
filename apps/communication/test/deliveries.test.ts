import { sql } from '@platform/db';
import { channelWithApp, httpPeer, startService } from './helpers';

it('lists an app’s deliveries newest first, by channel and status, in pages', async () => {
  const client = await startService({ env: { CHANNEL_HOOK_SECRET: 'whsec-0123456789abcdef' } });
  const { channel: log } = await channelWithApp(client, { name: 'log', provider: 'log' });
  // The hook's receiver refuses its message: the delivery fails there, not on its config.
  const peer = await httpPeer(() => ({ status: 400, body: 'no' }));
  const hook = { url: peer.url, secret: 'env:CHANNEL_HOOK_SECRET' };
  await channelWithApp(client, { name: 'hook', provider: 'webhook', config: hook });
  await client.call('POST', '/apps/app2/channels', { channelId: 'log' });
  const send = async (channelId: string, appId = 'app1') => {
    const res = await client.call('POST', `/apps/${appId}/send`, { channelId, text: 'x' });
    return client.settled(appId, res.body.data.delivery.id);
  };
  const a = await send('log');
  const b = await send('hook');
  expect(b.error).toMatch(/^127\.0\.0\.1:\d+ answered 400$/);
  expect(peer.requests).toHaveLength(1);
  const c = await send('log');
  await send('log', 'app2');
  const ids = async (query: string) =>
    (await client.call('GET', `/apps/app1/deliveries${query}`)).body.data.map(
      (d: { id: string }) => d.id,
    );
  expect(await ids('')).toEqual([c.id, b.id, a.id]);
  expect(await ids('?limit=2')).toEqual([c.id, b.id]);
  expect(await ids('?limit=2&offset=2')).toEqual([a.id]);
  expect(await ids(`?channelId=${log.id}`)).toEqual([c.id, a.id]);
  expect(await ids('?channelId=HOOK')).toEqual([b.id]);
  expect(await ids('?status=failed')).toEqual([b.id]);
  expect(await ids('?status=sent&channelId=log')).toEqual([c.id, a.id]);
  expect(await ids('?channelId=ch_gone')).toEqual([]);
  expect((await client.call('GET', '/apps/app1/deliveries?status=lost')).status).toBe(400);
  expect((await client.call('GET', '/apps/app1/deliveries?limit=1001')).status).toBe(400);
  // Another app's delivery is not found under this one.
  expect(await client.call('GET', `/apps/app2/deliveries/${a.id}`)).toMatchObject({
    status: 404,
    body: { error: { code: 'NOT_FOUND', message: `Delivery not found: ${a.id}` } },
  });
  // A deleted channel's deliveries stay listed under its id.
  await client.call('DELETE', '/apps/app1/channels/log');
  await client.call('DELETE', '/apps/app2/channels/log');
  expect((await client.call('DELETE', '/channels/log')).status).toBe(200);
  expect(await ids(`?channelId=${log.id}`)).toEqual([c.id, a.id]);
});

it('lists in a constant number of queries, whatever the number of rows', async () => {
  const client = await startService({ jobs: false });
  const { channel } = await channelWithApp(client, { name: 'log', provider: 'log' });
  const tables = client.svc.db.kysely;
  const add = async (from: number, to: number) => {
    await sql`insert into communication.deliveries (id, app_id, channel_id, provider, target, text, metadata, live, status)
      select 'dl_' || lpad(i::text, 8, '0'), 'app1', ${channel.id}, 'log', 't', 'x', '{}'::jsonb, false, 'sent'
      from generate_series(${from}::int, ${to - 1}::int) as i`.execute(tables);
    await sql`insert into communication.registrations (id, app_id, channel_id, target, metadata)
      select 'reg_' || lpad(i::text, 8, '0'), 'app' || i, ${channel.id}, '', '{}'::jsonb
      from generate_series(${from + 2}::int, ${to + 1}::int) as i`.execute(tables);
    await sql`insert into communication.channels (id, name, provider, config)
      select 'ch_' || lpad(i::text, 8, '0'), 'c' || i, 'log', '{}'::jsonb
      from generate_series(${from}::int, ${to - 1}::int) as i`.execute(tables);
  };
  const lists = [
    '/channels',
    '/apps/app1/deliveries',
    '/apps/app1/deliveries?channelId=log&status=sent',
    '/apps/app1/channels?channelId=log',
  ];
  const cost = async (url: string) => {
    client.svc.queries.reset();
    const res = await client.call('GET', url);
    expect(res.status).toBe(200);
    return client.svc.queries.count();
  };
  await add(0, 1);
  const one: number[] = [];
  for (const url of lists) one.push(await cost(url));
  await add(1, 200);
  for (const [i, url] of lists.entries()) expect(await cost(url)).toBe(one[i]);
  expect((await client.call('GET', '/apps/app1/deliveries')).body.data).toHaveLength(100);
  expect(one).toEqual([1, 1, 2, 2]);
});
