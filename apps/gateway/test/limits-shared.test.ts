import { sql } from '@platform/db';
import { SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

// Issue 38, item 5: two gateways on one database enforce one limit (counted in the database, by
// @fastify/rate-limit over a store of ours), per client address and per API key.

const ENV = {
  RATE_LIMIT_MAX: '4',
  RATE_LIMIT_WINDOW_MS: '60000',
  RATE_LIMIT_ALLOW: 'none',
  RATE_LIMIT_STORE: 'database',
};
const services = SERVICES.filter((s) => s.name === 'pulse');

let one: GatewayUnderTest;
let two: GatewayUnderTest;
beforeAll(async () => {
  one = await gatewayUnderTest(ENV, { services });
  two = await gatewayUnderTest(ENV, { services, db: one.db });
}, 60_000);
afterAll(async () => {
  await two.close();
  await one.close();
});

const get = (gw: GatewayUnderTest, remoteAddress: string, headers: Record<string, string> = {}) =>
  gw.app.inject({ url: '/api/v1/pulse/events', remoteAddress, headers });

it('counts an address once across both gateways', async () => {
  const answers = [];
  for (const gw of [one, two, one, two, one, two]) {
    const res = await get(gw, '10.4.0.1');
    answers.push([res.statusCode, res.headers['x-ratelimit-remaining']]);
  }
  expect(answers).toEqual([
    [200, '3'],
    [200, '2'],
    [200, '1'],
    [200, '0'],
    [429, '0'],
    [429, '0'],
  ]);
  const refused = await get(two, '10.4.0.1');
  expect(refused.json().error.code).toBe('RATE_LIMITED');
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
  // Another address is counted apart.
  expect((await get(one, '10.4.0.2')).statusCode).toBe(200);
});

it('counts an API key across addresses and gateways, never storing it', async () => {
  const key = { 'x-api-key': 'plk_shared_limit_key_of_the_test' };
  const statuses = [];
  for (let i = 0; i < 6; i++)
    statuses.push((await get(i % 2 ? two : one, `10.5.0.${i}`, key)).statusCode);
  expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  // The same addresses without the key: their own counts (one request each so far).
  expect((await get(one, '10.5.0.1')).statusCode).toBe(200);
  const { rows } = await sql<{ key: string }>`select key from gateway.rate_limits`.execute(
    one.db.kysely,
  );
  const keys = rows.map((r) => r.key);
  expect(keys.some((k) => k.startsWith('k:'))).toBe(true);
  expect(keys.some((k) => k.includes('plk_shared'))).toBe(false);
});
