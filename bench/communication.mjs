// Communication (issue 15): accepted sends per second and end-to-end deliveries per second to the
// log provider and to a local webhook, against the same webhook called directly.
import { createServer } from 'node:http';
import pg from 'pg';
import { call, databaseUrl, load, measure, post, rows, start } from './lib.mjs';

/** A webhook receiver in this process: answers 200 with a small JSON body, counts calls. */
async function receiver() {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ok"}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Waits until no delivery of the channel is still accepted; the deliveries sent per second. */
async function drained(pool, channelId, startedAt) {
  for (;;) {
    const {
      rows: [row],
    } = await pool.query(
      `select count(*) filter (where status = 'accepted')::int as pending,
              count(*) filter (where status = 'sent')::int as sent,
              count(*) filter (where status = 'failed')::int as failed
       from communication.deliveries where channel_id = $1`,
      [channelId],
    );
    if (row.failed > 0) {
      const { rows: why } = await pool.query(
        `select error from communication.deliveries where channel_id = $1 and status = 'failed' limit 1`,
        [channelId],
      );
      throw new Error(`${row.failed} deliveries failed, e.g. ${why[0]?.error}`);
    }
    if (row.pending === 0) return row.sent / ((Date.now() - startedAt) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function communication() {
  const hook = await receiver();
  const secret = 'bench-webhook-secret-0123456789';
  const service = await start('apps/communication/dist/main.js', {
    DATABASE_URL: databaseUrl,
    CHANNEL_BENCH_HOOK_SECRET: secret,
    // The receiver listens on loopback.
    COMMUNICATION_ALLOW_PRIVATE_TARGETS: 'true',
    LOG_LEVEL: 'warn',
  });
  const base = `${service.url}/api/v1/communication`;
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const suffix = Date.now().toString(36);
    const log = await call(base, 'POST', '/channels', {
      name: `bench-log-${suffix}`,
      provider: 'log',
    });
    const web = await call(base, 'POST', '/channels', {
      name: `bench-hook-${suffix}`,
      provider: 'webhook',
      config: { url: hook.url, secret: 'env:CHANNEL_BENCH_HOOK_SECRET' },
    });
    for (const channel of [log.data, web.data])
      await call(base, 'POST', '/apps/bench/channels', { channelId: channel.id, target: 'bench' });

    const body = { text: 'Build 42 passed', subject: 'CI', metadata: { build: 42 } };
    const direct = await measure(
      'POST webhook receiver, called directly',
      hook.url,
      post(JSON.stringify(body)),
    );
    for (const [what, channel] of [
      ['log', log.data],
      ['webhook', web.data],
    ]) {
      const startedAt = Date.now();
      const name = `POST /apps/:appId/send (${what}): accepted`;
      const r = await load(
        name,
        `${base}/apps/bench/send`,
        post(JSON.stringify({ channelId: channel.id, ...body })),
      );
      rows.push({ ...r, baseline: direct.name, ratio: r.rps / direct.rps });
      console.error(`  ${name}: ${Math.round(r.rps)} req/s`);
      const rate = await drained(pool, channel.id, startedAt);
      rows.push({
        name: `${what} deliveries sent end to end (accept to sent)`,
        events: rate,
        baseline: direct.name,
        ratio: rate / direct.rps,
      });
      console.error(`  ${what}: ${Math.round(rate)} deliveries/s end to end`);
    }
  } finally {
    await pool.end();
    await hook.close();
  }
}
