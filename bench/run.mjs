// npm run bench [-- group...]: throughput and latency of the gateway and the services, each as a
// ratio to a baseline measured in the same run on the same machine. Servers run as their own
// processes (the built entry points); autocannon runs here. BENCH_SECONDS sets each measurement's
// length (default 10). Groups: foundation (gateway and pulse), ledger; all by default.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import pg from 'pg';

const require = createRequire(import.meta.url);
const { startProcess } = require('../libs/testing/dist/index.js');
const { newId } = require('../libs/core/dist/index.js');
const root = join(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl)
  throw new Error(
    'DATABASE_URL is not set: run through `npm run bench` (scripts/with-postgres.sh)',
  );

const event = JSON.stringify({
  name: 'page_view',
  userId: 'u1',
  sessionId: 's1',
  properties: { path: '/home', ms: 12 },
});
const batchEvents = Array.from({ length: 1000 }, (_, i) => ({
  name: `event_${i % 20}`,
  userId: `u${i % 100}`,
  sessionId: `s${i % 10}`,
  properties: { path: `/page/${i}`, ms: i },
}));
const batch = JSON.stringify({ events: batchEvents });

async function load(name, url, options = {}) {
  const result = await autocannon({ url, duration: seconds, connections: 32, ...options });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${name}: ${failed} failed requests`);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const post = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });

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

const started = [];
const start = async (entry, env) => {
  const p = await startProcess(join(root, entry), env);
  started.push(p);
  return p;
};

const rows = [];
const measure = async (name, url, options, baseline) => {
  const r = await load(name, url, options);
  rows.push({ ...r, baseline: baseline?.name, ratio: baseline ? r.rps / baseline.rps : 1 });
  console.error(`  ${name}: ${Math.round(r.rps)} req/s`);
  return r;
};

/** The gateway and pulse: routing, proxying and ingestion (issue 2). */
async function foundation() {
  const hello = await start('bench/hello.mjs', {});
  const standalone = await start('apps/pulse/dist/main.js', { DATABASE_URL: databaseUrl });
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const proxied = await start('apps/gateway/dist/main.js', {
    DATABASE_URL: databaseUrl,
    PULSE_PROXY_URL: standalone.url,
  });
  const embedded = await start('apps/gateway/dist/main.js', { DATA_DIR: 'memory://' });

  const bare = await measure('bare Fastify hello-world', `${hello.url}/`);
  await measure('gateway GET /healthz', `${gateway.url}/healthz`, {}, bare);
  const direct = await measure(
    'POST /events, standalone pulse (direct)',
    `${standalone.url}/api/v1/pulse/events`,
    post(event),
    bare,
  );
  await measure(
    'POST /events, gateway in-process',
    `${gateway.url}/api/v1/pulse/events`,
    post(event),
    direct,
  );
  await measure(
    'POST /events, gateway proxy -> standalone',
    `${proxied.url}/api/v1/pulse/events`,
    post(event),
    direct,
  );
  await measure(
    'POST /events, gateway in-process on PGlite',
    `${embedded.url}/api/v1/pulse/events`,
    post(event),
    direct,
  );

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

const auditEvent = JSON.stringify({
  action: 'invoice.paid',
  actor: 'ann@example.com',
  resource: 'invoice/42',
  service: 'billing',
  metadata: { ip: '10.0.0.1', amount: 1200 },
});

/** The audit service: appends with the hash chain on, and verifying it (issue 3). */
async function ledger() {
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const embedded = await start('apps/gateway/dist/main.js', { DATA_DIR: 'memory://' });
  const standalone = await start('apps/ledger/dist/main.js', { DATABASE_URL: databaseUrl });

  // Baseline: pulse's POST /events, one plain INSERT per request, through the same gateway.
  const pulse = await measure(
    'POST /pulse/events, gateway in-process (baseline, no chain)',
    `${gateway.url}/api/v1/pulse/events`,
    post(event),
  );
  await measure(
    'POST /ledger/events, gateway in-process, chain on',
    `${gateway.url}/api/v1/ledger/events`,
    post(auditEvent),
    pulse,
  );
  await measure(
    'POST /ledger/events, standalone ledger (direct)',
    `${standalone.url}/api/v1/ledger/events`,
    post(auditEvent),
    pulse,
  );
  const one = await measure(
    'POST /pulse/events, gateway in-process, 1 connection',
    `${gateway.url}/api/v1/pulse/events`,
    { ...post(event), connections: 1 },
  );
  await measure(
    'POST /ledger/events, gateway in-process, 1 connection',
    `${gateway.url}/api/v1/ledger/events`,
    { ...post(auditEvent), connections: 1 },
    one,
  );
  const pglitePulse = await measure(
    'POST /pulse/events, gateway on PGlite',
    `${embedded.url}/api/v1/pulse/events`,
    post(event),
  );
  await measure(
    'POST /ledger/events, gateway on PGlite, chain on',
    `${embedded.url}/api/v1/ledger/events`,
    post(auditEvent),
    pglitePulse,
  );

  // Verifying: events checked per second, against reading the same rows with pg.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const readStart = Date.now();
  const { rowCount } = await pool.query('select * from ledger.events order by seq');
  const readRate = rowCount / ((Date.now() - readStart) / 1000);
  await pool.end();
  const t0 = Date.now();
  const response = await fetch(`${gateway.url}/api/v1/ledger/events/verify`);
  const { data } = await response.json();
  const verifyRate = data.checked / ((Date.now() - t0) / 1000);
  if (!data.valid) throw new Error(`verify: ${data.reason}`);
  rows.push({ name: `read ${rowCount} audit rows via pg (baseline)`, events: readRate, ratio: 1 });
  rows.push({
    name: `GET /ledger/events/verify over ${data.checked} events`,
    events: verifyRate,
    baseline: 'read rows via pg',
    ratio: verifyRate / readRate,
  });
  console.error(
    `  verify: ${Math.round(verifyRate)} events/s (read: ${Math.round(readRate)} rows/s)`,
  );
}

/**
 * A generated catalog of `count` services in layers of 500; each depends on three services in
 * deeper layers, one in a hundred also on one in a shallower layer (cycles), and the first on
 * the rest of the first layer, so that it reaches most of the graph. Written with pg.
 */
async function generateCatalog(count) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await pool.query('delete from catalog.dependencies; delete from catalog.services');
  const ids = Array.from({ length: count }, (_, i) => `s${String(i).padStart(7, '0')}`);
  const layer = (i) => Math.floor(i / 500);
  const layers = Math.ceil(count / 500);
  // mulberry32: the same graph on every run, so runs compare.
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (from, to) => from + Math.floor(random() * (to - from));
  const insert = async (table, columns, rows) => {
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      const values = chunk
        .map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(',')})`)
        .join(',');
      await pool.query(
        `insert into catalog.${table} (${columns.join(',')}) values ${values} on conflict do nothing`,
        chunk.flat(),
      );
    }
  };
  await insert(
    'services',
    ['id', 'name', 'description', 'tags'],
    ids.map((id, i) => [
      id,
      `svc-${i}`,
      `Generated service ${i} of layer ${layer(i)}`,
      JSON.stringify([`layer-${layer(i)}`, i % 2 ? 'odd' : 'even']),
    ]),
  );
  const edges = [];
  ids.forEach((id, i) => {
    const l = layer(i);
    if (l + 1 < layers)
      for (let k = 0; k < 3; k++)
        edges.push([id, ids[pick((l + 1) * 500, Math.min(count, layers * 500))]]);
    if (l > 0 && i % 100 === 0) edges.push([id, ids[pick(0, l * 500)]]);
  });
  for (let i = 1; i < Math.min(500, count); i++) edges.push([ids[0], ids[i]]);
  await insert('dependencies', ['service_id', 'depends_on_id'], edges);
  // As autovacuum would soon: plans made on empty-table statistics are not what users get.
  await pool.query('analyze catalog.services; analyze catalog.dependencies');
  await pool.end();
  return { ids, edges: edges.length, top: ids[0], bottom: ids[count - 1] };
}

/** The catalog: dependency traversal on a 10,000-service graph, and search (issue 4). */
async function catalog() {
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const graph = await generateCatalog(10_000);
  console.error(`  generated 10000 services, ${graph.edges} dependencies`);
  const base = `${gateway.url}/api/v1/catalog`;
  const size = async (url) => (await (await fetch(url)).json()).data.nodes.length;
  const get = await measure('GET /services/:id (10,000 services)', `${base}/services/${graph.top}`);
  for (const [name, url] of [
    ['GET /deps down, unlimited', `${base}/deps/${graph.top}`],
    ['GET /deps up, unlimited', `${base}/deps/${graph.bottom}?direction=up`],
    ['GET /deps down, depth 2', `${base}/deps/${graph.top}?depth=2`],
  ]) {
    const nodes = await size(url);
    await measure(`${name} (${nodes} nodes)`, url, {}, get);
  }
  const single = await measure('GET /services/:id, 1 connection', `${base}/services/${graph.top}`, {
    connections: 1,
  });
  const downUrl = `${base}/deps/${graph.top}`;
  await measure(
    `GET /deps down, unlimited, 1 connection (${await size(downUrl)} nodes)`,
    downUrl,
    { connections: 1 },
    single,
  );
  await measure('GET /search?q=svc-12 (prefix)', `${base}/search?q=svc-12`, {}, get);
  await measure('GET /search?q=layer-7 (tag)', `${base}/search?q=layer-7`, {}, get);
  await measure('GET /search?q=zzz (no hit, full scan)', `${base}/search?q=zzz`, {}, get);
}

/** The design system: exporting 2,000 tokens in each format (issue 5). */
async function palette() {
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await pool.query('delete from palette.component_tokens; delete from palette.tokens');
  const categories = ['color', 'spacing', 'radius', 'shadow', 'motion'];
  const values = {
    color: '#3366ff',
    spacing: '4px',
    radius: '8px',
    shadow: '0 1px 2px #0003',
    motion: '120ms',
  };
  const rows = Array.from({ length: 2000 }, (_, i) => {
    const category = categories[i % categories.length];
    const name = `${category}-token-${i}`;
    return [
      `t${i}`,
      name,
      category,
      values[category],
      i % 2 ? '#001133' : null,
      `--${name}`,
      `token-${i}`,
      `group-${i % 10}`,
    ];
  });
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const placeholders = chunk.map(
      (_, r) => `(${Array.from({ length: 8 }, (_, c) => `$${r * 8 + c + 1}`).join(',')})`,
    );
    await pool.query(
      `insert into palette.tokens (id, name, category, value_default, value_dark, css_variable, tailwind_key, "group") values ${placeholders.join(',')}`,
      chunk.flat(),
    );
  }
  await pool.query('analyze palette.tokens');
  await pool.end();
  const base = `${gateway.url}/api/v1/palette`;
  const list = await measure('GET /tokens?limit=100 (2,000 tokens)', `${base}/tokens?limit=100`);
  await measure('GET /tokens?limit=1000', `${base}/tokens?limit=1000`, {}, list);
  for (const format of ['css', 'json', 'tailwind', 'tailwind4'])
    await measure(
      `GET /export?format=${format} (2,000 tokens)`,
      `${base}/export?format=${format}`,
      {},
      list,
    );
}

/** Billing: reports over 100,000 items (issue 6). */
async function billing() {
  const gateway = await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await pool.query('delete from billing.items');
  // Generated in the database: 100,000 items over a year, 5 providers, 8 categories, some tags.
  await pool.query(`
    insert into billing.items (id, name, amount, currency, provider, category, service, tags, recurring, period, date)
    select 'b' || lpad(i::text, 11, '0'), 'item ' || i, (i * 7919) % 100000, 'USD',
           (array['openai','anthropic','aws','gcp',null])[1 + i % 5],
           'category-' || (i % 8), 'service-' || (i % 20),
           case when i % 3 = 0 then '["ml","gpu"]'::jsonb else '["web"]'::jsonb end,
           i % 10 = 0, case when i % 10 = 0 then 'monthly' end,
           timestamptz '2026-01-01' + (i % 365) * interval '1 day' + (i % 86400) * interval '1 second'
    from generate_series(1, 100000) as i`);
  await pool.query('analyze billing.items');
  await pool.end();
  const base = `${gateway.url}/api/v1/billing`;
  const list = await measure('GET /items?limit=100 (100,000 items)', `${base}/items?limit=100`);
  for (const [name, path] of [
    ['summary', 'reports/summary'],
    ['breakdown by provider', 'reports/breakdown?by=provider'],
    ['breakdown by tag', 'reports/breakdown?by=tag'],
    ['trend by day (365 rows)', 'reports/trend?interval=day'],
    ['trend by month, one provider', 'reports/trend?interval=month&provider=openai'],
  ])
    await measure(`GET /${path.split('?')[0]}: ${name}`, `${base}/${path}`, {}, list);
}

const groups = { foundation, ledger, catalog, palette, billing };
const chosen = process.argv.slice(2);
for (const name of chosen)
  if (!(name in groups))
    throw new Error(`Unknown bench group ${name}: ${Object.keys(groups).join(', ')}`);

try {
  console.error(`Measuring ${seconds} s each, 32 connections unless said…`);
  for (const name of chosen.length ? chosen : Object.keys(groups)) {
    console.error(`${name}:`);
    await groups[name]();
  }

  const fmt = (n, d = 0) => (n === undefined ? '' : n.toFixed(d));
  console.log(
    `\nBenchmark: ${seconds} s per row, Node ${process.version}, PostgreSQL at DATABASE_URL\n`,
  );
  console.log('| scenario | req/s | events/s | p50 ms | p99 ms | ratio | baseline |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${fmt(r.rps)} | ${fmt(r.events)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.ratio, 2)} | ${r.baseline ?? '(baseline)'} |`,
    );
  }
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    join(root, 'bench/results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`),
    JSON.stringify(rows, null, 2),
  );
} finally {
  await Promise.all(started.map((p) => p.stop()));
}
