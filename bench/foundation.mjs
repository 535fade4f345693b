// The gateway and pulse (issue 2): routing, proxying and ingestion, single events and batches.
import { createRequire } from 'node:module';
import pg from 'pg';
import {
  databaseUrl,
  event,
  latencies,
  load,
  measure,
  post,
  rows,
  seconds,
  start,
} from './lib.mjs';

const require = createRequire(import.meta.url);
const { newId } = require('../libs/core/dist/index.js');

const batchEvents = Array.from({ length: 1000 }, (_, i) => ({
  name: `event_${i % 20}`,
  userId: `u${i % 100}`,
  sessionId: `s${i % 10}`,
  properties: { path: `/page/${i}`, ms: i },
}));
const batch = JSON.stringify({ events: batchEvents });
/** Headers of the connection or the body, which the hello-world sets itself. */
const PER_CONNECTION = ['date', 'connection', 'keep-alive', 'content-length', 'content-type'];

/** Rows/s of the same 1000-row batch inserted with one multi-row INSERT through pg, `workers` at a time. */
async function plainInsert(workers) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: workers });
  await pool.query('create schema if not exists bench; drop table if exists bench.events');
  await pool.query('create table bench.events (like pulse.events including all)');
  const columns = ['id', 'name', 'properties', 'user_id', 'session_id', 'timestamp'];
  const placeholders = batchEvents
    .map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(',')})`)
    .join(',');
  const sql = `insert into bench.events (${columns.join(',')}) values ${placeholders} on conflict (id) do nothing`;
  // Random 8-character ids and one timestamp per batch, as the service makes them.
  const params = () => {
    const now = new Date();
    return batchEvents.flatMap((e) => [
      newId(),
      e.name,
      JSON.stringify(e.properties),
      e.userId,
      e.sessionId,
      now,
    ]);
  };
  let rows = 0;
  const until = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < until) rows += (await pool.query(sql, params())).rowCount;
  };
  await Promise.all(Array.from({ length: workers }, worker));
  await pool.query('drop schema bench cascade');
  await pool.end();
  return rows / seconds;
}

/** The gateway and pulse: routing, proxying and ingestion (issue 2). */
export async function foundation() {
  const hello = await start('bench/hello.mjs', {});
  const standalone = await start('apps/pulse/dist/main.js', { DATABASE_URL: databaseUrl });
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const proxied = await start('apps/gateway/dist/main.js', {
    DATABASE_URL: databaseUrl,
    PULSE_PROXY_URL: standalone.url,
  });
  const embedded = await start('apps/gateway/dist/main.js', { DATA_DIR: 'memory://' });

  // The same Fastify sending the gateway's headers (security, CORS, request id): what the
  // gateway's own work costs beyond writing a larger answer.
  const sample = await fetch(`${gateway.url}/healthz`);
  const sent = Object.fromEntries(
    [...sample.headers].filter(([name]) => !PER_CONNECTION.includes(name)),
  );
  const helloHeaders = await start('bench/hello.mjs', { HELLO_HEADERS: JSON.stringify(sent) });
  // CORS adds its allow-origin header itself.
  const own = Object.entries(sent).filter(([name]) => name !== 'access-control-allow-origin');
  const helloPlugins = await start('bench/hello.mjs', {
    HELLO_HEADERS: JSON.stringify(Object.fromEntries(own)),
    HELLO_PLUGINS: '1',
  });

  const nodeHeaders = await start('bench/hello.mjs', {
    HELLO_HEADERS: JSON.stringify(sent),
    HELLO_SERVER: 'node',
  });
  const plainNode = await start('bench/hello.mjs', { HELLO_SERVER: 'node' });

  // Each row also has its server's CPU time per request (`server`): the throughput of the larger
  // answers can be bound by autocannon reading them, on the same two cores.
  const bare = await measure('bare Fastify hello-world', `${hello.url}/`, { server: hello });
  await measure('node:http hello-world', `${plainNode.url}/`, { server: plainNode }, bare);
  // What Node itself spends writing the gateway's headers, with no framework: the floor of any
  // server that sends them.
  const nodeSame = await measure(
    "node:http hello-world with the gateway's headers",
    `${nodeHeaders.url}/`,
    { server: nodeHeaders },
    bare,
  );
  const same = await measure(
    "bare Fastify hello-world with the gateway's headers",
    `${helloHeaders.url}/`,
    { server: helloHeaders },
    bare,
  );
  const healthz = (against) => `gateway GET /healthz${against ? ` (against ${against})` : ''}`;
  const overGateway = { server: gateway };
  await measure(healthz(), `${gateway.url}/healthz`, overGateway, bare);
  await measure(
    healthz("node:http with the gateway's headers"),
    `${gateway.url}/healthz`,
    overGateway,
    nodeSame,
  );
  await measure(healthz('the same headers'), `${gateway.url}/healthz`, overGateway, same);
  const libraries = await measure(
    "bare Fastify hello-world with the gateway's headers, request ids, logger, cookies and CORS",
    `${helloPlugins.url}/`,
    { server: helloPlugins },
    bare,
  );
  await measure(healthz('the same libraries'), `${gateway.url}/healthz`, overGateway, libraries);
  // Server CPU only where both sides leave the database to PostgreSQL's own processes (the
  // proxy's and PGlite's rows would compare a share of the work with the whole).
  const direct = await measure(
    'POST /events, standalone pulse (direct)',
    `${standalone.url}/api/v1/pulse/events`,
    { ...post(event), server: standalone },
    bare,
  );
  const inProcess = await measure(
    'POST /events, gateway in-process',
    `${gateway.url}/api/v1/pulse/events`,
    { ...post(event), server: gateway },
    direct,
  );
  await measure(
    'POST /events, gateway proxy -> standalone',
    `${proxied.url}/api/v1/pulse/events`,
    post(event),
    direct,
  );
  // The same gateway on the embedded database: the engines compared like for like.
  await measure(
    'POST /events, gateway in-process on PGlite',
    `${embedded.url}/api/v1/pulse/events`,
    post(event),
    inProcess,
  );

  // Latency, one request at a time: what the gateway, and its proxy, add to a request unloaded.
  const one = (name) => `${name}, one at a time`;
  const events = one('POST /events, standalone pulse (direct)');
  await latencies([
    { name: one('bare Fastify hello-world'), url: `${hello.url}/` },
    {
      name: one('gateway GET /healthz'),
      url: `${gateway.url}/healthz`,
      baseline: one('bare Fastify hello-world'),
    },
    { name: events, url: `${standalone.url}/api/v1/pulse/events`, init: post(event) },
    ...[
      ['POST /events, gateway in-process', gateway.url],
      ['POST /events, gateway proxy -> standalone', proxied.url],
    ].map(([name, url]) => ({
      name: one(name),
      url: `${url}/api/v1/pulse/events`,
      init: post(event),
      baseline: events,
    })),
  ]);

  // The baseline is the better of one and four inserts at a time (four is not faster here).
  let plain = 0;
  for (const workers of [1, 4]) {
    const rate = await plainInsert(workers);
    plain = Math.max(plain, rate);
    rows.push({
      name: `plain multi-row INSERT via pg (1000 rows, ${workers} at a time)`,
      events: rate,
      ratio: 1,
    });
    console.error(`  plain INSERT, ${workers} at a time: ${Math.round(rate)} rows/s`);
  }
  for (const [name, url] of [
    ['batch of 1000, gateway in-process', gateway.url],
    ['batch of 1000, gateway in-process on PGlite', embedded.url],
  ]) {
    const r = await load(name, `${url}/api/v1/pulse/events/batch`, {
      ...post(batch),
      connections: 4,
    });
    rows.push({
      ...r,
      events: r.rps * 1000,
      baseline: 'best plain INSERT',
      ratio: (r.rps * 1000) / plain,
    });
    console.error(`  ${name}: ${Math.round(r.rps * 1000)} events/s`);
  }
}
