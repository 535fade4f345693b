// First: the OpenTelemetry SDK (when OTEL_EXPORTER_OTLP_ENDPOINT is set) before http, undici, pg.
import '@platform/core/dist/tracing-preload.js';
import { runStandalone } from '@platform/core';
import { ledger } from './index.js';

runStandalone(ledger).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
