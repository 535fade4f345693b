import type { AddressInfo } from 'node:net';
import { buildServiceApp, type App, type Env, type ServiceManifest } from '@platform/core';
import { migrateSchema, type PlatformDatabase } from '@platform/db';
import { testDatabase } from './database.js';

export interface ServiceUnderTest {
  app: App;
  db: PlatformDatabase;
  close(): Promise<void>;
}

/**
 * One service on its own instance and a fresh, migrated database, driven with `app.inject`. The
 * service reads its variables from `env` only (never process.env) and runs its periodic jobs.
 */
export async function serviceUnderTest(
  manifest: ServiceManifest,
  options: { db?: PlatformDatabase; env?: Env } = {},
): Promise<ServiceUnderTest> {
  const database = options.db ?? (await testDatabase());
  await migrateSchema(database, manifest.name, manifest.migrations);
  const app = await buildServiceApp(manifest, { db: database, env: options.env ?? {}, jobs: true });
  return {
    app,
    db: database,
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
