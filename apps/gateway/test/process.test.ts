import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { request } from 'undici';
import {
  migratedService,
  processStorage,
  startProcess,
  type DatabasePreset,
} from '@platform/testing';
import { pulse as pulseService } from '@platform/pulse';
import { SERVICES } from '../src/index';
import { migratedFor } from './helpers';

// The built entry points, as `npm start` and the containers run them (`npm test` builds first).
// Each test starts processes that open and migrate embedded databases (several seconds each on a
// busy machine): they get 90 s.
const root = join(__dirname, '..', '..', '..');
const gatewayMain = join(root, 'apps/gateway/dist/main.js');
const pulseMain = join(root, 'apps/pulse/dist/main.js');
const migrateMain = join(root, 'apps/gateway/dist/migrate.js');

const removals: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(removals.map((remove) => remove())));

/**
 * A database of its own for a process: a new Postgres database, or a PGlite data directory; with
 * every migration run already when a preset is given (the restart and proxy tests are not about
 * migrating: the migrate test is).
 */
async function storage(preset?: DatabasePreset): Promise<Record<string, string>> {
  const made = await processStorage(preset);
  removals.push(made.remove);
  return made.env;
}

async function json(method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await request(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
}

it('starts the gateway, keeps acknowledged data across a restart, and stops cleanly on SIGTERM', async () => {
  const env = await storage(migratedFor(SERVICES));
  const first = await startProcess(gatewayMain, env);
  const created = await json('POST', `${first.url}/api/v1/pulse/events`, {
    name: 'persisted',
    userId: 'e2e',
  });
  expect(created.status).toBe(201);
  expect(await first.stop()).toBe(0);

  const second = await startProcess(gatewayMain, env);
  try {
    const listed = await json('GET', `${second.url}/api/v1/pulse/events?userId=e2e`);
    expect(listed.body.data).toEqual([created.body.data]);
    expect((await json('GET', `${second.url}/api/v1/health`)).body.data.status).toBe('ok');
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 90_000);

it('proxies to a standalone pulse process, and serves in-process once that process is gone', async () => {
  const pulse = await startProcess(pulseMain, await storage(migratedService(pulseService)));
  const gateway = await startProcess(gatewayMain, {
    ...(await storage(migratedFor(SERVICES))),
    PULSE_PROXY_URL: pulse.url,
  });
  try {
    const viaProxy = await json('POST', `${gateway.url}/api/v1/pulse/events`, {
      name: 'to-standalone',
    });
    expect(viaProxy.status).toBe(201);
    expect(viaProxy.headers['x-served-by']).toBeUndefined();
    expect(
      (await json('GET', `${pulse.url}/api/v1/pulse/events`)).body.data.map((e: any) => e.name),
    ).toEqual(['to-standalone']);
    expect(
      (await json('GET', `${gateway.url}/api/v1/health`)).body.data.services.find(
        (s: { name: string }) => s.name === 'pulse',
      ),
    ).toMatchObject({ via: 'proxy', status: 'ok' });

    expect(await pulse.stop()).toBe(0);
    const fallback = await json('POST', `${gateway.url}/api/v1/pulse/events`, {
      name: 'in-process',
    });
    expect(fallback.status).toBe(201);
    expect(fallback.headers['x-served-by']).toBe('in-process-fallback');
    expect(
      (await json('GET', `${gateway.url}/api/v1/health`)).body.data.services.find(
        (s: { name: string }) => s.name === 'pulse',
      ),
    ).toMatchObject({ via: 'fallback', status: 'ok' });
  } finally {
    await pulse.stop();
    await gateway.stop();
  }
}, 90_000);

it('migrates every schema with `npm run migrate`, and again without change', async () => {
  const env = { PATH: process.env.PATH ?? '', ...(await storage()) };
  const run = () => promisify(execFile)(process.execPath, [migrateMain], { env });
  const names = SERVICES.map((s) => s.name).join(', ');
  expect((await run()).stdout).toMatch(
    new RegExp(`^Migrated gateway and ${names} on (pglite|postgres)$`, 'm'),
  );
  expect((await run()).stdout).toMatch(new RegExp(`^Migrated gateway and ${names}`, 'm'));
  await expect(
    promisify(execFile)(process.execPath, [migrateMain], {
      env: { ...env, DATABASE_URL: 'not a url' },
    }),
  ).rejects.toMatchObject({
    stderr: expect.stringContaining('DATABASE_URL must be an absolute URL'),
  });
}, 90_000);
