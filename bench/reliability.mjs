// What rate limiting (issue 11) costs on every request: the same gateway with and without it.
import { databaseUrl, event, measure, post, start } from './lib.mjs';

export async function reliability() {
  const env = { DATABASE_URL: databaseUrl };
  const unlimited = await start('apps/gateway/dist/main.js', { ...env, RATE_LIMIT_MAX: '0' });
  // Limits every client, loopback included, with a limit the run never reaches.
  const limited = await start('apps/gateway/dist/main.js', {
    ...env,
    RATE_LIMIT_MAX: '100000000',
    RATE_LIMIT_ALLOW: 'none',
  });

  for (const [what, path, options] of [
    ['GET /healthz', '/healthz', {}],
    ['GET /api/v1/pulse/events?limit=10', '/api/v1/pulse/events?limit=10', {}],
    ['POST /api/v1/pulse/events', '/api/v1/pulse/events', post(event)],
  ]) {
    const off = await measure(`${what}, rate limiting off`, `${unlimited.url}${path}`, options);
    await measure(`${what}, rate limiting on`, `${limited.url}${path}`, options, off);
  }
}
