import { onceFor, type ServiceManifest } from '@platform/core';
import type { PlatformDatabase } from '@platform/db';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { testDatabase, type DatabasePreset } from '@platform/testing';
import { buildGateway, gatewayConfig, migrateAll, SERVICES } from '../src/index';

const ROOT = join(__dirname, '../../..');
const presets = new WeakMap<readonly ServiceManifest[], DatabasePreset>();

/**
 * A database already migrated for these services (migrating all ten takes 1-1.5 s, copying the
 * result a tenth of that): made again whenever the code of the gateway, a service or the
 * database library changes.
 */
export const migratedFor = (services: readonly ServiceManifest[]): DatabasePreset =>
  onceFor(presets, services, () => ({
    name: `gateway-${createHash('sha256')
      .update(services.map((service) => service.name).join())
      .digest('hex')
      .slice(0, 6)}`,
    sources: [
      ...['apps/gateway/src', 'libs/db/src', 'libs/core/src'].map((dir) => join(ROOT, dir)),
      // A service's folder holds web/dist and src.
      ...services.map((service) => join(service.webRoot, '../../src')),
    ],
    prepare: (db) => migrateAll(db, services),
  }));

export interface GatewayUnderTest {
  app: Awaited<ReturnType<typeof buildGateway>>;
  db: PlatformDatabase;
  close(): Promise<void>;
}

/** The gateway on a fresh database with the given environment (nothing read from process.env). */
export async function gatewayUnderTest(
  env: Record<string, string> = {},
  options: {
    db?: PlatformDatabase;
    services?: readonly ServiceManifest[];
    /** Log lines go here (JSON, one per line); without it the gateway logs nothing. */
    logStream?: NodeJS.WritableStream;
  } = {},
): Promise<GatewayUnderTest> {
  const services = options.services ?? SERVICES;
  // Changes are audited by default; a test that is not about the trail keeps it to what it writes
  // (audit.test.ts, deployment-auth.test.ts and the processes the tests start keep it on).
  const config = gatewayConfig(services, { AUDIT_CHANGES: 'false', ...env });
  const db = options.db ?? (await testDatabase(migratedFor(services)));
  const logging = options.logStream ? { logStream: options.logStream } : { logger: false };
  const app = await buildGateway({ config, db, services, ...logging }).catch(
    async (error: unknown) => {
      if (!options.db) await db.close();
      throw error;
    },
  );
  await app.ready();
  return {
    app,
    db,
    async close() {
      await app.close();
      if (!options.db) await db.close();
    },
  };
}
