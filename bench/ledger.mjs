// The audit service, ledger (issue 3): appends with the hash chain on, and verifying the chain.
import pg from 'pg';
import { databaseUrl, event, measure, post, rows, start } from './lib.mjs';

const auditEvent = JSON.stringify({
  action: 'invoice.paid',
  actor: 'ann@example.com',
  resource: 'invoice/42',
  service: 'billing',
  metadata: { ip: '10.0.0.1', amount: 1200 },
});

/** The audit service: appends with the hash chain on, and verifying it (issue 3). */
export async function ledger() {
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
