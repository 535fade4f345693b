// npm run build && scripts/with-postgres.sh node bench/pglite-worker.mjs
// Pulse ingestion through the gateway on the embedded database: PGlite in a worker thread (the
// default, DATA_DIR=memory://) and in the main thread (before issue 20), each as a ratio to the
// same gateway on PostgreSQL; single events (32 connections) and batches of 1000 (4). ROUNDS
// (default 1) repeats the set, for a range on a noisy machine.
import { databaseUrl, event, load, post, rows, report, start, stopAll } from './lib.mjs';

const batch = JSON.stringify({
  events: Array.from({ length: 1000 }, (_, i) => ({
    name: `event_${i % 20}`,
    userId: `u${i % 100}`,
    properties: { path: `/page/${i}`, ms: i },
  })),
});
const rounds = Number(process.env.ROUNDS ?? 1);

try {
  const servers = {
    postgres: await start('apps/gateway/dist/main.js', { DATABASE_URL: databaseUrl }),
    'PGlite worker': await start('apps/gateway/dist/main.js', { DATA_DIR: 'memory://' }),
    'PGlite in-thread': await start('bench/pglite-gateway-in-thread.cjs', {}),
  };
  for (let round = 1; round <= rounds; round++) {
    for (const [what, path, options, per] of [
      ['POST /events', '/api/v1/pulse/events', post(event), 1],
      ['batch of 1000', '/api/v1/pulse/events/batch', { ...post(batch), connections: 4 }, 1000],
    ]) {
      let baseline;
      for (const [name, server] of Object.entries(servers)) {
        const r = await load(`${what}, ${name}`, `${server.url}${path}`, options);
        baseline ??= r;
        rows.push({
          ...r,
          events: r.rps * per,
          baseline: baseline === r ? undefined : baseline.name,
          ratio: r.rps / baseline.rps,
        });
        console.error(`  ${r.name}: ${Math.round(r.rps * per)} events/s`);
      }
    }
  }
  report();
} finally {
  await stopAll();
}
