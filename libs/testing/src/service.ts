import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  authSettings,
  onceFor,
  buildServiceApp,
  type App,
  type Env,
  type MountOptions,
  type ServiceManifest,
} from '@platform/core';
import { migrateSchema, type PlatformDatabase } from '@platform/db';
import { testDatabase, type DatabasePreset } from './database.js';
import { countQueries, type CountedDatabase } from './queries.js';

export interface ServiceUnderTest {
  app: App;
  /** The service's database: what a test does through it is counted in `queries` too. */
  db: PlatformDatabase;
  /** The statements run since the start or the last reset: what proves a list has no N+1. */
  queries: Pick<CountedDatabase, 'count' | 'statements' | 'reset'>;
  close(): Promise<void>;
}

const presets = new WeakMap<ServiceManifest, DatabasePreset>();

/**
 * A database with the service's migrations run: made once per machine (again when its code or
 * the database library changes), and put back as new between tests instead of migrated again.
 */
export const migratedService = (manifest: ServiceManifest): DatabasePreset =>
  onceFor(presets, manifest, () => ({
    name: `service-${manifest.name}`,
    // webRoot is <service>/web/dist; the migrations are in <service>/src.
    sources: [join(manifest.webRoot, '../../src'), join(__dirname, '../../db/src')],
    prepare: (db) => migrateSchema(db, manifest.name, manifest.migrations),
  }));

/**
 * One service on its own instance and a fresh, migrated database, driven with `app.inject`. The
 * service reads its variables from `env` only (never process.env), authentication included (on
 * when env has OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and SESSION_SECRET), and polls for its jobs, unless
 * `jobs` says otherwise (false: no polling, so no background query is counted; options: a shorter
 * poll or lease).
 */
export async function serviceUnderTest(
  manifest: ServiceManifest,
  options: { db?: PlatformDatabase; env?: Env; jobs?: MountOptions['jobs'] } = {},
): Promise<ServiceUnderTest> {
  const counted = countQueries(options.db ?? (await testDatabase(migratedService(manifest))));
  const database = counted.db;
  await migrateSchema(database, manifest.name, manifest.migrations); // a given db may be new
  const env = options.env ?? {};
  const app = await buildServiceApp(manifest, {
    database,
    config: manifest.config(env),
    jobs: options.jobs ?? true,
    auth: authSettings(env),
    platform: { url: env.PLATFORM_URL },
  }).catch(async (error: unknown) => {
    // A configuration refused: the database made here goes with it.
    if (!options.db) await database.close();
    throw error;
  });
  return {
    app,
    db: database,
    queries: { count: counted.count, statements: counted.statements, reset: counted.reset },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Listens on a free loopback port and returns the base URL, for tests where the network is the point. */
export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** A loopback URL on which nothing listens: a port that was free a moment ago. */
export async function deadUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A JSON body as a test reads it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test checks the shape it expects
export type Json = any;

export interface JsonApi {
  get(url: string): Promise<{ status: number; body: Json }>;
  post(url: string, payload?: unknown): Promise<{ status: number; body: Json }>;
  put(url: string, payload: unknown): Promise<{ status: number; body: Json }>;
  patch(url: string, payload: unknown): Promise<{ status: number; body: Json }>;
  del(url: string): Promise<{ status: number; body: Json }>;
}

/** JSON requests to `app` under `prefix` through `inject`, answering status and parsed body. */
export function jsonApi(app: App, prefix: string): JsonApi {
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) => {
    const res = await app.inject({
      method,
      url: `${prefix}${url}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json() };
  };
  return {
    get: (url) => call('GET', url),
    post: (url, payload) => call('POST', url, payload ?? {}),
    put: (url, payload) => call('PUT', url, payload),
    patch: (url, payload) => call('PATCH', url, payload),
    del: (url) => call('DELETE', url),
  };
}
