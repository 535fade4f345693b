import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  ConfigError,
  buildServiceApp,
  envBool,
  envInt,
  envUrl,
  newId,
  parseInstant,
  parseRange,
  defineService,
} from '../src/index';
import { openDatabase } from '@platform/db';

describe('newId', () => {
  it('makes ids of the asked length from [A-Za-z0-9], with an optional prefix', () => {
    expect(newId()).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(newId(12)).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(newId(16, 'ch_')).toMatch(/^ch_[A-Za-z0-9]{16}$/);
  });

  it('does not repeat, and uses the whole alphabet', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.join('')).size).toBe(62);
  });
});

describe('configuration', () => {
  it('reads integers, booleans and URLs, and names the variable when one is wrong', () => {
    expect(envInt({ PORT: '8080' }, 'PORT', 3000)).toBe(8080);
    expect(envInt({}, 'PORT', 3000)).toBe(3000);
    expect(() => envInt({ PORT: '80a' }, 'PORT', 3000, { min: 0, max: 65535 })).toThrow(
      new ConfigError('PORT', 'must be an integer from 0 to 65535, got "80a"'),
    );
    expect(() => envInt({ PORT: '70000' }, 'PORT', 3000, { min: 0, max: 65535 })).toThrow(
      /PORT must be an integer/,
    );
    expect(envBool({ F: 'TRUE' }, 'F')).toBe(true);
    expect(envBool({ F: '0' }, 'F')).toBe(false);
    expect(envBool({ F: '' }, 'F')).toBeUndefined();
    expect(envUrl({ U: 'http://x:1/' }, 'U')).toBe('http://x:1');
    expect(() => envUrl({ U: 'x:1' }, 'U')).toThrow(
      'Invalid configuration: U must be an absolute URL, got "x:1"',
    );
  });
});

describe('from/to filters', () => {
  it('reads dates as whole days and timestamps as given', () => {
    expect(parseInstant('2026-01-31', 'from', 'from').toISOString()).toBe(
      '2026-01-31T00:00:00.000Z',
    );
    expect(parseInstant('2026-01-31', 'to', 'to').toISOString()).toBe('2026-01-31T23:59:59.999Z');
    expect(parseInstant('2026-01-31T10:00:00+02:00', 'to', 'to').toISOString()).toBe(
      '2026-01-31T08:00:00.000Z',
    );
    expect(() => parseInstant('2026-13-01', 'from', 'from')).toThrow(
      'from is not a valid date or timestamp: 2026-13-01',
    );
    expect(() => parseRange({ from: '2026-02-01', to: '2026-01-01' })).toThrow(
      'from must not be after to',
    );
  });
});

describe('service health when the database does not answer', () => {
  const probe = defineService({
    name: 'probe',
    title: 'Probe',
    root: join(__dirname, '..'),
    defaultPort: 0,
    migrations: {},
    routes: [],
  });

  let blackhole: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Accepts connections and never says a word, like a database host that hangs.
    blackhole = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    sockets.forEach((s) => s.destroy());
    await new Promise<void>((resolve) => blackhole.close(() => resolve()));
  });

  it('answers 503 SERVICE_UNAVAILABLE within the ping timeout instead of hanging', async () => {
    const { port } = blackhole.address() as AddressInfo;
    const db = await openDatabase({ url: `postgres://u:p@127.0.0.1:${port}/db` });
    const app = await buildServiceApp(probe, { database: db, config: undefined, jobs: false });
    const res = await app.inject({ method: 'GET', url: '/api/v1/probe/healthz' });
    await app.close();
    sockets.forEach((s) => s.destroy());
    await db.close().catch(() => undefined);
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'probe: database unreachable (database did not answer within 2000 ms)',
    });
  });
});
