import type { ServiceManifest } from '@platform/core';
import type { PlatformDatabase } from '@platform/db';
import { testDatabase } from '@platform/testing';
import { buildGateway, gatewayConfig, SERVICES } from '../src/index';

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
  const config = gatewayConfig(services, env);
  const db = options.db ?? (await testDatabase());
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
