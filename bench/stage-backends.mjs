// App backends (issue 17): a warm request to a trivial backend (/stage/:sid/api, an isolate in the
// backend runtime) against the same handler as a plain Fastify route, both in one stage service in
// this process, over HTTP, one request at a time; and the first request after a change of the
// backend's files (bundle, new isolate, answer). Goals: under 1 ms added at p50, under 50 ms.
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { call, databaseUrl, root, rows } from './lib.mjs';

const require = createRequire(join(root, 'apps/stage/package.json'));
const { createApp } = require(join(root, 'libs/core/dist/index.js'));
const { openDatabase, migrateSchema } = require(join(root, 'libs/db/dist/index.js'));
const { stage } = require(join(root, 'apps/stage/dist/index.js'));
const REQUESTS = Number(process.env.BENCH_STAGE_BACKEND_REQUESTS ?? 3000);
const CHANGES = Number(process.env.BENCH_STAGE_BACKEND_CHANGES ?? 20);

/** The handler, as the backend's source and as a function run natively. */
const HANDLER = `{
  fetch(request) {
    const url = new URL(request.url);
    return new Response(JSON.stringify({ ok: true, path: url.pathname, q: url.searchParams.get('q') }), {
      headers: { 'content-type': 'application/json' },
    });
  },
}`;
const native = new Function(`return ${HANDLER}`)();

const pct = (times, p) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * p))];

async function timed(n, task) {
  for (let i = 0; i < Math.min(200, n); i += 1) await task(i);
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const t = performance.now();
    await task(i);
    times.push(performance.now() - t);
  }
  return { p50: pct(times, 0.5), p99: pct(times, 0.99) };
}

export async function stageBackends() {
  const database = await openDatabase({ url: databaseUrl });
  await migrateSchema(database, stage.name, stage.migrations);
  const app = createApp();
  await app.register(stage.plugin, { database, config: stage.config({}), jobs: false });
  // The same handler natively: a Fetch Request in, its Response sent back.
  app.get('/plain/*', async (request, reply) => {
    const res = await native.fetch(new Request(`http://${request.host}/${request.params['*']}`));
    return reply
      .code(res.status)
      .headers(Object.fromEntries(res.headers))
      .send(Buffer.from(await res.arrayBuffer()));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server.address().port}`;
  try {
    const session = (await call(base, 'POST', '/api/v1/stage/sessions')).data.id;
    const files = (n) => ({ '/app/api/index.ts': `// v${n}\nexport default ${HANDLER};` });
    await call(base, 'POST', `/api/v1/stage/sessions/${session}/push`, { files: files(0) });
    const { sid } = (
      await call(base, 'POST', '/api/v1/stage/apps', {
        sessionId: session,
        name: `bench-${Date.now()}`,
      })
    ).data;

    const plain = await timed(REQUESTS, () => call(base, 'GET', '/plain/hello?q=1'));
    const warm = await timed(REQUESTS, () => call(base, 'GET', `/stage/${sid}/api/hello?q=1`));
    rows.push({ name: 'GET plain Fastify route, same handler natively', ...plain, ratio: 1 });
    rows.push({
      name: 'GET /stage/:sid/api/hello, warm backend',
      ...warm,
      baseline: 'GET plain Fastify route, same handler natively',
      ratio: plain.p50 / warm.p50,
    });
    console.error(
      `  warm backend p50 ${warm.p50.toFixed(3)} ms, plain route ${plain.p50.toFixed(3)} ms: +${(warm.p50 - plain.p50).toFixed(3)} ms`,
    );

    // The push is not timed: the first request after it is (hash, bundle, isolate, answer).
    const firsts = [];
    for (let i = 0; i < CHANGES; i += 1) {
      await call(base, 'POST', `/api/v1/stage/sessions/${session}/push`, {
        files: files(1000 + i),
      });
      const t = performance.now();
      await call(base, 'GET', `/stage/${sid}/api/hello`);
      firsts.push(performance.now() - t);
    }
    const first = { p50: pct(firsts, 0.5), p99: pct(firsts, 0.99) };
    rows.push({ name: 'first request after a change of the backend', ...first, ratio: 50 / first.p50, baseline: 'the 50 ms goal' }); // prettier-ignore
    console.error(`  first request after a change p50 ${first.p50.toFixed(1)} ms`);
  } finally {
    await app.close();
    await database.close();
  }
}
