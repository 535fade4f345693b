// What authentication (issue 13) costs on every request: the same gateway with it off, and on
// with an API key (its checksum, then one indexed read a request).
import { randomBytes } from 'node:crypto';
import { databaseUrl, event, measure, post, start } from './lib.mjs';

export async function identity() {
  const { newApiKey } = await import('../apps/passport/dist/auth/keys.js');
  const key = newApiKey();
  const auth = {
    OIDC_ISSUER: 'http://127.0.0.1:9/',
    OIDC_CLIENT_ID: 'bench',
    OIDC_CLIENT_SECRET: 'bench',
    SESSION_SECRET: randomBytes(32).toString('hex'),
  };
  const env = { DATABASE_URL: databaseUrl, RATE_LIMIT_MAX: '0' };
  const off = await start('apps/gateway/dist/main.js', env);
  const on = await start('apps/gateway/dist/main.js', { ...env, ...auth, PLATFORM_API_KEY: key });
  const headers = { 'x-api-key': key };

  for (const [what, path, options] of [
    ['GET /api/v1/pulse/events?limit=10', '/api/v1/pulse/events?limit=10', {}],
    ['POST /api/v1/pulse/events', '/api/v1/pulse/events', post(event)],
  ]) {
    const base = await measure(`${what}, authentication off`, `${off.url}${path}`, options);
    await measure(
      `${what}, with an API key`,
      `${on.url}${path}`,
      { ...options, headers: { ...options.headers, ...headers } },
      base,
    );
  }
}
