import { closeOnSignals, databaseOptions } from '@platform/core';
import { openDatabase } from '@platform/db';
import { buildGateway } from './app.js';
import { gatewayConfig } from './config.js';
import { SERVICES } from './services.js';

async function main() {
  const config = gatewayConfig(SERVICES);
  const db = await openDatabase(databaseOptions(config));
  const app = await buildGateway({ config, db, services: SERVICES });
  closeOnSignals(
    async () => {
      await app.close();
      await db.close();
    },
    app.log,
    config.shutdownTimeoutMs,
  );
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
