// Loaded first (`node --require @platform/core/dist/tracing-preload.js`, or the first import of a
// main.ts): starts the OpenTelemetry Node SDK before http, undici and pg are loaded, so that its
// instrumentations patch them. Nothing happens unless OTEL_EXPORTER_OTLP_ENDPOINT is set: the
// standard OTEL_* variables (OTEL_SERVICE_NAME, OTEL_EXPORTER_OTLP_HEADERS, ...) configure the rest.
// Spans go over OTLP/HTTP (JSON); W3C traceparent is honoured from clients and sent onward.

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT && process.env.OTEL_SDK_DISABLED !== 'true') {
  // Traces only: the metrics are Prometheus' (GET /metrics), the logs are stdout's.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } =
    require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'platform',
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes are not worth a trace each.
        ignoreIncomingRequestHook: (request) =>
          /\/healthz$|^\/metrics/.test((request.url ?? '').split('?')[0]),
      }),
      new UndiciInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  (globalThis as { __platformTracing?: boolean }).__platformTracing = true;
  // Spans still in memory are sent before the process exits (SIGTERM drains, then exits 0).
  process.once('beforeExit', () => void sdk.shutdown());
  const flush = () => void sdk.shutdown().catch(() => undefined);
  process.once('SIGTERM', flush);
  process.once('SIGINT', flush);
}

export {};
