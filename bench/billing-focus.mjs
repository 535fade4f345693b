// FOCUS staging (issue 39): a generated FOCUS file of BENCH_FOCUS_MB megabytes (default 500,
// under the OS's temporary folder, removed after) uploaded to a standalone billing service's
// POST /sync/focus, on PostgreSQL (DATABASE_URL) and on PGlite (a data directory, as DATA_DIR
// makes it). Staging is the upload until its 202 (every row read, checked and staged); its MB/s is
// a ratio to the baseline: COPY of the same file into a plain table of text columns (one per
// column of the file) on the same database engine, timed before and after the upload (the mean).
// The service's memory: RSS before the upload, the most sampled during it (every second), and its
// peak (VmHWM). The merge that follows is timed too (the job's end), for information. CPU: the
// megabytes each CPU second of the work bought (the service's process and PostgreSQL's server;
// for COPY, this process and the server): a measure the other work of a shared machine leaves be.
// Rows: each of the public 1,000-row FOCUS 1.0 sample (apps/billing/test/fixtures/focus), again
// and again, each copy's resources renamed so that every row is a charge of its own.
//   npm run bench -- billing-focus       BENCH_FOCUS_MB=100 npm run bench -- billing-focus
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { databaseUrl, root, rows } from './lib.mjs';

const require = createRequire(import.meta.url);
const { openDatabase, copyInto, sql } = require('../libs/db/dist/index.js');
const { parse } = require('csv-parse/sync');

const megabytes = Number(process.env.BENCH_FOCUS_MB ?? 500);
const WINDOW = 'from=2024-09-01&to=2024-09-30';

/** Writes the FOCUS file: the sample's rows again and again; answers its header and size. */
async function generate(file) {
  const sample = readFileSync(join(root, 'apps/billing/test/fixtures/focus/focus_sample.csv'));
  const [header, ...records] = parse(sample, { relax_quotes: true });
  const resource = header.indexOf('ResourceId');
  const id = header.indexOf('Id');
  // Each cell as the sample writes it: NULL bare, numbers bare, text quoted.
  const cell = (value, i) =>
    value === 'NULL' || /^-?[\d.]+$/.test(value) || i === id
      ? value
      : `"${value.replace(/"/g, '""')}"`;
  const out = createWriteStream(file);
  let bytes = 0;
  const write = async (text) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${header.map((h) => `"${h}"`).join(',')}\n`);
  for (let copy = 0; bytes < megabytes * 1e6; copy++) {
    let piece = '';
    for (const record of records) {
      const row = [...record];
      row[resource] = `${row[resource] === 'NULL' ? 'resource' : row[resource]}-${copy}`;
      row[id] = String(copy * records.length + Number(row[id]));
      piece += `${row.map(cell).join(',')}\n`;
    }
    await write(piece);
  }
  out.end();
  await once(out, 'finish');
  return { header, bytes };
}

/** CPU seconds a process has used (all its threads; `children`: and its reaped children's). */
function cpuOf(pid, children = false) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = [11, 12, ...(children ? [13, 14] : [])].reduce((t, i) => t + Number(fields[i]), 0);
  return ticks / 100;
}

/** CPU seconds of the PostgreSQL server of `database` so far: its postmaster and every backend. */
async function postgresCpu(database) {
  const { rows: found } = await sql`show data_directory`.execute(database.kysely);
  const dir = found[0].data_directory;
  const master = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = cpuOf(master, true);
  for (const entry of readdirSync('/proc'))
    if (/^\d+$/.test(entry))
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
        if (Number(stat[1]) === master) total += cpuOf(entry);
      } catch {
        // gone meanwhile
      }
  return total;
}

/** CPU seconds the database used (PostgreSQL's server; PGlite runs in the caller's process). */
const databaseCpu = (database) => (database.kind === 'postgres' ? postgresCpu(database) : 0);
const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

const statusOf = (pid, field) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) /
  1024;

/** The built billing service on `env`'s database, as its own process; stop() ends it. */
async function billingService(env) {
  const port = 30_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, [join(root, 'apps/billing/dist/main.js')], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'fatal', // alone, it cannot reach the catalog or the ledger: no warnings of it
      REQUEST_TIMEOUT_MS: '3600000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/api/v1/billing`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`billing exited with ${child.exitCode}`);
    try {
      await request(`${base}/healthz`).then((r) => r.body.text());
      break;
    } catch (error) {
      if (i > 600) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    base,
    cpu: () => cpuOf(child.pid),
    rss: () => statusOf(child.pid, 'VmRSS'),
    peak: () => statusOf(child.pid, 'VmHWM'),
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** MB/s of COPY of the file into a plain table of text columns, on `database` (then dropped). */
async function baseline(database, file, header, bytes) {
  const table = 'focus_baseline';
  const columns = header.map((h) => `"${h}" text`).join(', ');
  await sql`drop table if exists ${sql.table(table)}`.execute(database.kysely);
  await sql.raw(`create table ${table} (${columns})`).execute(database.kysely);
  const cpu = ownCpu() + (await databaseCpu(database));
  const started = performance.now();
  const copied = await copyInto(
    database.kysely,
    { table, columns: header, format: 'csv', header: true },
    createReadStream(file, { highWaterMark: 2 ** 20 }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = ownCpu() + (await databaseCpu(database)) - cpu;
  await sql`drop table ${sql.table(table)}`.execute(database.kysely);
  return { mbps: bytes / 1e6 / seconds, rows: copied, seconds, mbPerCpu: bytes / 1e6 / used };
}

/** Uploads the file to the service; MB/s to the 202, memory, and the job's end. */
async function stage(service, database, file, bytes) {
  const cpu = service.cpu() + (await databaseCpu(database));
  const before = service.rss();
  let most = before;
  const sampling = setInterval(() => (most = Math.max(most, service.rss())), 1000);
  const started = performance.now();
  const res = await request(`${service.base}/sync/focus?${WINDOW}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', 'content-length': String(bytes) },
    body: createReadStream(file, { highWaterMark: 2 ** 16 }),
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const answer = await res.body.json();
  const seconds = (performance.now() - started) / 1000;
  const used = service.cpu() + (await databaseCpu(database)) - cpu;
  clearInterval(sampling);
  if (res.statusCode !== 202)
    throw new Error(`upload: ${res.statusCode} ${JSON.stringify(answer)}`);
  const peak = service.peak();
  let job = answer.data;
  const merging = performance.now();
  while (job.status === 'running') {
    await new Promise((r) => setTimeout(r, 2000));
    const r = await request(`${service.base}/sync/jobs/${job.id}`, { headersTimeout: 0 });
    job = (await r.body.json()).data ?? job;
  }
  if (job.status !== 'completed') throw new Error(`the job failed: ${job.error}`);
  return {
    mbps: bytes / 1e6 / seconds,
    seconds,
    mbPerCpu: bytes / 1e6 / used,
    rows: answer.data.rowsWritten,
    rss: { before, most, peak },
    merge: (performance.now() - merging) / 1000,
    items: job.itemsCreated + job.itemsUpdated,
  };
}

async function measureOn(name, database, env, file, header, bytes) {
  const first = await baseline(database, file, header, bytes);
  console.error(
    `  ${name}: COPY into a text table ${first.mbps.toFixed(1)} MB/s (${first.rows} rows)`,
  );
  const service = await billingService(env);
  let staged;
  try {
    staged = await stage(service, database, file, bytes);
  } finally {
    await service.stop();
  }
  const second = await baseline(database, file, header, bytes);
  const base = (first.mbps + second.mbps) / 2;
  const baseCpu = (first.mbPerCpu + second.mbPerCpu) / 2;
  const { rss } = staged;
  console.error(
    `  ${name}: staging ${staged.mbps.toFixed(1)} MB/s (${staged.rows} rows in ${staged.seconds.toFixed(0)} s), ` +
      `${(staged.mbps / base).toFixed(2)} of COPY (${first.mbps.toFixed(1)}, ${second.mbps.toFixed(1)} MB/s); ` +
      `CPU: ${staged.mbPerCpu.toFixed(1)} MB per CPU second, COPY ${baseCpu.toFixed(1)} (${(staged.mbPerCpu / baseCpu).toFixed(2)}); ` +
      `RSS ${rss.before.toFixed(0)} MB before, at most ${rss.most.toFixed(0)} MB during, peak ${rss.peak.toFixed(0)} MB; ` +
      `merge ${staged.merge.toFixed(0)} s (${staged.items} items)`,
  );
  const copyName = `FOCUS ${Math.round(bytes / 1e6)} MB: COPY into a text table, ${name}`;
  rows.push({
    name: copyName,
    mbps: base,
    mbpsRuns: [first.mbps, second.mbps],
    mbPerCpu: baseCpu,
    ratio: 1,
  });
  rows.push({
    name: `FOCUS ${Math.round(bytes / 1e6)} MB: staging (POST /sync/focus to 202), ${name}`,
    mbps: staged.mbps,
    ratio: staged.mbps / base,
    mbPerCpu: staged.mbPerCpu,
    cpuRatio: staged.mbPerCpu / baseCpu,
    baseline: copyName,
    rowsStaged: staged.rows,
    rssMb: rss,
    mergeSeconds: staged.merge,
  });
}

/** FOCUS staging on PostgreSQL and PGlite, each as a ratio to COPY on the same engine. */
export async function billingFocus() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-focus-'));
  try {
    const file = join(dir, 'focus.csv');
    const { header, bytes } = await generate(file);
    console.error(`  generated ${(bytes / 1e6).toFixed(0)} MB of FOCUS 1.0 rows`);
    const postgres = await openDatabase({ url: databaseUrl, poolSize: 2 });
    try {
      await measureOn('PostgreSQL', postgres, { DATABASE_URL: databaseUrl }, file, header, bytes);
      await sql`delete from billing.items where source = 'focus'`.execute(postgres.kysely);
    } finally {
      await postgres.close();
    }
    // PGlite: the service's data directory, and one like it for the baseline (one process only).
    const baselineDir = join(dir, 'pglite-baseline');
    const pglite = await openDatabase({ dataDir: baselineDir });
    try {
      await measureOn(
        'PGlite',
        pglite,
        { DATA_DIR: join(dir, 'pglite-service') },
        file,
        header,
        bytes,
      );
    } finally {
      await pglite.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
