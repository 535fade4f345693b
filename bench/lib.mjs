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

/**
 * Throughput with autocannon. With `server` (a started process), also the server's CPU time per
 * request (`cpuUs`, from /proc): what the server itself spends on a request, whoever the
 * bottleneck is (on 2 shared cores, autocannon reading larger answers can be).
 */
export async function load(name, url, { server, ...options } = {}) {
  const cpuBefore = server?.cpuMicros();
  const result = await autocannon({ url, duration: seconds, connections: 32, ...options });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${name}: ${failed} failed requests`);
  const cpuAfter = server?.cpuMicros();
  const cpuUs =
    cpuBefore === undefined || cpuAfter === undefined || !result.requests.total
      ? undefined
      : (cpuAfter - cpuBefore) / result.requests.total;
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs,
  };
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
/**
 * A throughput row, as a ratio to `baseline`'s req/s; with both servers' CPU time per request
 * (`options.server`), also `cpuRatio`: the baseline's CPU per request over this row's (higher is
 * better, like the req/s ratio).
 */
export const measure = async (name, url, options, baseline) => {
  const r = await load(name, url, options);
  const cpuRatio =
    baseline?.cpuUs !== undefined && r.cpuUs !== undefined ? baseline.cpuUs / r.cpuUs : undefined;
  rows.push({
    ...r,
    baseline: baseline?.name,
    ratio: baseline ? r.rps / baseline.rps : 1,
    cpuRatio,
  });
  const cpu = r.cpuUs === undefined ? '' : `, server CPU ${r.cpuUs.toFixed(1)} µs/request`;
  console.error(`  ${name}: ${Math.round(r.rps)} req/s${cpu}`);
  return r;
};

/** Milliseconds to the first body chunk (time to first token of a stream) and to the answer's end. */
async function timed(url, init) {
  const t0 = performance.now();
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let first;
  for await (const part of res.body) first ??= part.length ? performance.now() : undefined;
  const end = performance.now();
  return { ttft: (first ?? end) - t0, total: end - t0 };
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * Latency, one request at a time: each scenario `{ name, url, init, field, baseline }` (`field`
 * `total` or `ttft`, `baseline` another scenario's name) gets BENCH_CALLS timed requests (default
 * 1000), in 10 rounds: in each, every scenario in turn sends 20 requests to warm up, then a tenth
 * of its calls. Blocks keep each server warm, as under steady traffic (one request of each in turn
 * measured every server cold: +0.5 ms for a chat through two processes); rounds spread whatever
 * else the machine does over every scenario alike. A row per scenario: p50 and p99 in ms, and
 * against its baseline the added p50 and the ratio of p50s (lower is better).
 */
export async function latencies(scenarios) {
  const calls = Number(process.env.BENCH_CALLS ?? 1000);
  const rounds = 10;
  const times = scenarios.map(() => []);
  for (let round = 0; round < rounds; round++)
    for (const [s, { url, init, field = 'total' }] of scenarios.entries())
      for (let i = -20; i < calls / rounds; i++) {
        const t = (await timed(url, init))[field];
        if (i >= 0) times[s].push(t);
      }
  const measured = new Map();
  for (const [s, { name, baseline }] of scenarios.entries()) {
    const sorted = times[s].sort((a, b) => a - b);
    const row = { name, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), baseline };
    const base = baseline === undefined ? undefined : measured.get(baseline);
    if (baseline !== undefined && !base)
      throw new Error(`${name}: baseline ${baseline} not measured before it`);
    if (base) Object.assign(row, { addedP50: row.p50 - base.p50, ratio: row.p50 / base.p50 });
    measured.set(name, row);
    rows.push(row);
    const added = base ? `, added p50 ${row.addedP50.toFixed(2)} ms` : '';
    console.error(`  ${name}: p50 ${row.p50.toFixed(2)} ms, p99 ${row.p99.toFixed(2)} ms${added}`);
  }
}

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
        baselineCpuUs: base?.cpuUs,
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
  console.log(
    '| scenario | req/s | events/s | p50 ms | p99 ms | ratio | CPU µs/req | CPU ratio | added p50 ms | baseline |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of result.rows) {
    console.log(
      `| ${r.name} | ${fmt(r.rps)} | ${fmt(r.events)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.ratio, 2)} | ${fmt(r.cpuUs, 1)} | ${fmt(r.cpuRatio, 2)} | ${r.p50 === undefined || r.rps !== undefined ? '' : fmt(r.addedP50Ms, 2)} | ${r.baseline ?? '(baseline)'} |`,
    );
  }
}
