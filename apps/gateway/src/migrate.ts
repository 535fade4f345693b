import { databaseOptions } from '@platform/core';
import { openDatabase } from '@platform/db';
import { migrateAll } from './app.js';
import { gatewayConfig } from './config.js';
import { SERVICES } from './services.js';

/** `npm run migrate`: brings the gateway's and every service's schema to the latest migration. */
async function main() {
  const config = gatewayConfig(SERVICES);
  const db = await openDatabase(databaseOptions(config));
  try {
    await migrateAll(db, SERVICES);
    console.log(`Migrated gateway and ${SERVICES.map((s) => s.name).join(', ')} on ${db.kind}`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
