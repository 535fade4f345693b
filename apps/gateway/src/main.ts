// First: the OpenTelemetry SDK (when OTEL_EXPORTER_OTLP_ENDPOINT is set) before http, undici, pg.
import '@platform/core/dist/tracing-preload.js';
import { databaseOptions, serve } from '@platform/core';
import { openDatabase } from '@platform/db';
import { buildGateway } from './app.js';
import { gatewayConfig } from './config.js';
import { SERVICES } from './services.js';

async function main() {
  const config = gatewayConfig(SERVICES);
  const db = await openDatabase(databaseOptions(config));
  const app = await buildGateway({ config, db, services: SERVICES });
  await serve(app, db, config);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
