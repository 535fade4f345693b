// npm run bench [-- [--json] group...]: throughput and latency of the gateway and the services, each as a
// ratio to a baseline measured in the same run on the same machine. Servers run as their own
// processes (the built entry points); autocannon runs here. BENCH_SECONDS sets each measurement's
// length (default 10), BENCH_CALLS the requests of each latency row (default 1000). Groups, one file each: foundation (gateway and pulse), ledger, catalog,
// palette, billing, reliability (what rate limiting costs), identity (what authentication
// costs), communication (sends and deliveries), stage (pushes and renders), inference (what
// the service adds to a chat and to time to first token), stage-backends (what an app backend adds
// to a request, and its first request after a change); all by default, else those named, in the order
// named. lib.mjs holds the shared machinery: starting servers, measuring, and printing and
// writing the results. --json prints every figure with its baseline's and the ratio as JSON
// (bench/results/<time>.json keeps each run's either way, so runs can be compared).
import { report, seconds, stopAll } from './lib.mjs';
import { foundation } from './foundation.mjs';
import { ledger } from './ledger.mjs';
import { catalog } from './catalog.mjs';
import { palette } from './palette.mjs';
import { billing } from './billing.mjs';
import { billingFocus } from './billing-focus.mjs';
import { reliability } from './reliability.mjs';
import { identity } from './identity.mjs';
import { communication } from './communication.mjs';
import { stage } from './stage.mjs';
import { inference } from './inference.mjs';
import { stageBackends } from './stage-backends.mjs';
import { pulseInsights } from './pulse-insights.mjs';
import { pulseIngest } from './pulse-ingest.mjs';
import { gitBench } from './git.mjs';
import { operations } from './operations.mjs';

const groups = {
  foundation,
  ledger,
  catalog,
  palette,
  billing,
  'billing-focus': billingFocus,
  reliability,
  identity,
  communication,
  stage,
  inference,
  'stage-backends': stageBackends,
  'pulse-ingest': pulseIngest,
  'pulse-insights': pulseInsights,
  git: gitBench,
  operations,
};
const args = process.argv.slice(2);
const json = args.includes('--json');
const chosen = args.filter((a) => a !== '--json');
const unknown = chosen.filter((name) => !Object.hasOwn(groups, name));
if (unknown.length)
  throw new Error(
    `Unknown bench group ${unknown.join(', ')}: the groups are ${Object.keys(groups).join(', ')}`,
  );

try {
  console.error(`Measuring ${seconds} s each, 32 connections unless said…`);
  for (const name of chosen.length ? chosen : Object.keys(groups)) {
    console.error(`${name}:`);
    await groups[name]();
    // A group's servers stop before the next group starts: a gateway left running would also
    // run the next group's jobs (its in-process services poll the same database).
    await stopAll();
  }
  report({ json });
} finally {
  await stopAll();
}
