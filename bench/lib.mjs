// The shared machinery of the benchmarks: starting servers, measuring with autocannon as a ratio
// to a baseline, and printing and writing the result rows.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';

const require = createRequire(import.meta.url);
const { startProcess } = require('../libs/testing/dist/index.js');
export const root = join(import.meta.dirname, '..');
export const seconds = Number(process.env.BENCH_SECONDS ?? 10);
export const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl)
  throw new Error(
    'DATABASE_URL is not set: run through `npm run bench` (scripts/with-postgres.sh)',
  );

/** One pulse event, posted by several groups (the ingestion baseline). */
export const event = JSON.stringify({
  name: 'page_view',
  userId: 'u1',
  sessionId: 's1',
  properties: { path: '/home', ms: 12 },
});

export async function load(name, url, options = {}) {
  const result = await autocannon({ url, duration: seconds, connections: 32, ...options });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${name}: ${failed} failed requests`);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** A JSON call that must succeed: its parsed answer, or an error naming the route and status. */
export async function call(base, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

export const post = (body) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
});

const started = [];
/** Starts a built entry point (relative to the repository root); stopped by `stopAll`. */
export const start = async (entry, env) => {
  const p = await startProcess(join(root, entry), env);
  started.push(p);
  return p;
};
export const stopAll = () => Promise.all(started.map((p) => p.stop()));

/** The result rows, in the order measured; groups push rows measured other than by `measure`. */
export const rows = [];
export const measure = async (name, url, options, baseline) => {
  const r = await load(name, url, options);
  rows.push({ ...r, baseline: baseline?.name, ratio: baseline ? r.rps / baseline.rps : 1 });
  console.error(`  ${name}: ${Math.round(r.rps)} req/s`);
  return r;
};

/** The machine the figures were measured on: ratios compare within a run, figures only here. */
function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

/**
 * The run's figures: every row with its baseline's figures and the ratio, plus the machine and
 * the settings. Written to bench/results/<time>.json, and to stdout with `--json` (else a Markdown
 * table, the one the README shows).
 */
export function report({ json = false } = {}) {
  const byName = new Map(rows.map((r) => [r.name, r]));
  const result = {
    date: new Date().toISOString(),
    seconds,
    machine: machine(),
    rows: rows.map((r) => {
      const base = r.baseline ? byName.get(r.baseline) : undefined;
      return {
        ...r,
        baselineRps: base?.rps,
        baselineP50: base?.p50,
        addedP50Ms: base && r.p50 !== undefined ? r.p50 - base.p50 : undefined,
      };
    }),
  };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    join(root, 'bench/results', `${result.date.replace(/[:.]/g, '-')}.json`),
    JSON.stringify(result, null, 2),
  );
  if (json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const fmt = (n, d = 0) => (n === undefined ? '' : n.toFixed(d));
  const m = result.machine;
  console.log(
    `\nBenchmark: ${seconds} s per row, ${m.cores} × ${m.cpu}, ${m.memoryGiB} GiB, Node ${m.node}, PostgreSQL at DATABASE_URL\n`,
  );
  console.log('| scenario | req/s | events/s | p50 ms | p99 ms | ratio | baseline |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${fmt(r.rps)} | ${fmt(r.events)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.ratio, 2)} | ${r.baseline ?? '(baseline)'} |`,
    );
  }
}
