// Measures a FOCUS upload end to end: starts the built billing service (dist/main.js) as its own
// process, streams a generated FOCUS CSV of SIZE_MB megabytes to POST /sync/focus (generated as it
// is sent, never held whole), shows the staging progress while it uploads, follows the job, and
// prints the times and the service's memory (VmRSS now, VmHWM the peak). Usage, from the repository root, after `npx tsc -b apps/billing`:
//   SIZE_MB=200 node apps/billing/scripts/measure-focus-upload.mjs
// with DATABASE_URL=postgres://... to use PostgreSQL, else an embedded PGlite in a temp directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';

const sizeMb = Number(process.env.SIZE_MB ?? 200);
const HEADER =
  'BilledCost,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,ProviderName,ServiceName,ServiceCategory,SubAccountId,SubAccountName,RegionName,ResourceId,SkuId,ChargeCategory,ChargeFrequency,Tags';
const row = (i) => {
  const day = String(1 + (i % 28)).padStart(2, '0');
  const next = String(2 + (i % 28)).padStart(2, '0');
  return `0.0${i % 5}449,USD,2026-01-${day}T00:00:00Z,2026-01-${next}T00:00:00Z,${i % 2 ? 'AWS' : 'Microsoft'},${i % 2 ? 'Amazon EC2' : 'Virtual Machines'},Compute,acct-${i % 3},Account ${i % 3},${i % 2 ? 'us-east-1' : 'westeurope'},res-${i},sku-${i % 5},Usage,Usage-Based,"{""env"":""${i % 2 ? 'prod' : 'dev'}""}"`;
};
let rows = 0;
async function* csv() {
  let sent = 0;
  let piece = `${HEADER}\n`;
  while (sent < sizeMb * 1e6) {
    while (piece.length < 65536) piece += `${row(rows++)}\n`;
    sent += Buffer.byteLength(piece);
    yield piece;
    piece = '';
  }
}

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});
const dir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), 'focus-measure-'));
const main = join(import.meta.dirname, '..', 'dist', 'main.js');
const child = spawn(process.execPath, [main], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    ...(dir ? { DATA_DIR: dir } : {}),
  },
  stdio: 'inherit',
});
child.on('exit', (code, signal) => {
  if (!stopping) console.log(`service exited: code ${code}, signal ${signal}`);
});
let stopping = false;
const base = `http://127.0.0.1:${port}/api/v1/billing`;
const peak = () =>
  /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1] / 1024;
const rss = () =>
  /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1] / 1024;
try {
  for (;;) {
    try {
      await request(`${base}/healthz`).then((r) => r.body.text());
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const before = rss();
  const t0 = Date.now();
  const watch = setInterval(async () => {
    const jobs = await request(`${base}/sync/jobs?provider=focus&limit=1`).then((r) =>
      r.body.json(),
    );
    const job = jobs.data[0];
    if (job?.status === 'running')
      console.log(
        `  upload +${((Date.now() - t0) / 1000).toFixed(0)} s: read ${job.rowsRead} written ${job.rowsWritten}; RSS ${rss().toFixed(0)} MB`,
      );
  }, 5000);
  const res = await request(`${base}/sync/focus?from=2026-01-01&to=2026-01-31`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: csv(),
  });
  const started = await res.body.json();
  clearInterval(watch);
  const tUpload = Date.now();
  if (res.statusCode !== 202) console.log(JSON.stringify(started));
  console.log(
    `upload: HTTP ${res.statusCode}, ${rows} rows, ${((tUpload - t0) / 1000).toFixed(1)} s, peak RSS ${peak().toFixed(0)} MB (${before.toFixed(0)} MB before)`,
  );
  let job;
  do {
    await new Promise((r) => setTimeout(r, 2000));
    try {
      const res = await request(`${base}/sync/jobs/${started.data?.id}`, { headersTimeout: 0 });
      job = (await res.body.json()).data;
    } catch (error) {
      console.log(`  +${((Date.now() - tUpload) / 1000).toFixed(0)} s: GET failed: ${error.code}`);
      job = { status: 'running' };
      continue;
    }
    if (!job) break;
    console.log(
      `  +${((Date.now() - tUpload) / 1000).toFixed(0)} s: ${job.status} read ${job.rowsRead} written ${job.rowsWritten} skipped ${job.rowsSkipped}; RSS ${rss().toFixed(0)} MB`,
    );
  } while (job.status === 'running');
  const t1 = Date.now();
  console.log(
    `job: ${job?.status} ${job?.error ?? ''} itemsCreated ${job?.itemsCreated}, ${((t1 - tUpload) / 1000).toFixed(1)} s after the upload; total ${((t1 - t0) / 1000).toFixed(1)} s; service peak RSS ${peak().toFixed(0)} MB`,
  );
} finally {
  stopping = true;
  child.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
