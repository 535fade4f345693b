// What operating the platform (issue 38) costs on the gateway's hot path, each as a ratio to the
// same gateway without it, in the same run: OpenTelemetry tracing (exporting over OTLP/HTTP to a
// local receiver that discards), the audit outbox on every change, and rate limits counted in
// the database (shared by gateways) instead of in memory. Metrics (prom-client, one counter and
// one histogram per answer) are always on, in the baseline too.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { databaseUrl, event, measure, post, root } from './lib.mjs';

const { startProcess } = createRequire(import.meta.url)('../libs/testing/dist/index.js');
const running = [];
/** As lib.mjs's `start`, with room for a traced gateway's slower start (the SDK loads first). */
const start = async (entry, env) => {
  const p = await startProcess(join(root, entry), env, { timeoutMs: 120_000 });
  running.push(p);
  return p;
};

export async function operations() {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const otlp = `http://127.0.0.1:${receiver.address().port}`;
  try {
    const env = { DATABASE_URL: databaseUrl, RATE_LIMIT_MAX: '0' };
    const plain = await start('apps/gateway/dist/main.js', env);
    const traced = await start('apps/gateway/dist/main.js', {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
    });
    const audited = await start('apps/gateway/dist/main.js', { ...env, AUDIT_CHANGES: 'true' });
    const limits = { RATE_LIMIT_MAX: '100000000', RATE_LIMIT_ALLOW: 'none' };
    const memory = await start('apps/gateway/dist/main.js', {
      ...env,
      ...limits,
      RATE_LIMIT_STORE: 'memory',
    });
    const shared = await start('apps/gateway/dist/main.js', {
      ...env,
      ...limits,
      RATE_LIMIT_STORE: 'database',
    });

    for (const [what, path, options] of [
      ['GET /healthz', '/healthz', {}],
      ['GET /api/v1/pulse/events?limit=10', '/api/v1/pulse/events?limit=10', {}],
      ['POST /api/v1/pulse/events', '/api/v1/pulse/events', post(event)],
    ]) {
      const off = await measure(`${what}, tracing off`, `${plain.url}${path}`, options);
      await measure(`${what}, tracing on (OTLP)`, `${traced.url}${path}`, options, off);
      const local = await measure(
        `${what}, rate limits in memory`,
        `${memory.url}${path}`,
        options,
      );
      await measure(`${what}, rate limits in the database`, `${shared.url}${path}`, options, local);
    }
    // An audited change: a catalog system made per request, each named apart (pulse events are
    // ingestion, not audited).
    let n = 0;
    const systems = (prefix) => ({
      requests: [
        {
          ...post('{}'),
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ name: `${prefix}-${process.pid}-${n++}` }),
          }),
        },
      ],
    });
    const change = '/api/v1/catalog/systems';
    const off = await measure(
      `POST ${change}, audit off`,
      `${plain.url}${change}`,
      systems('plain'),
    );
    await measure(
      `POST ${change}, audit on (outbox)`,
      `${audited.url}${change}`,
      systems('audited'),
      off,
    );
  } finally {
    await Promise.all(running.splice(0).map((p) => p.stop()));
    receiver.close();
  }
}
