import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { JobQueue, migrateCore } from '@platform/core';
import { migrateSchema, sql } from '@platform/db';
import {
  eventually,
  migratedService,
  processStorage,
  startProcess,
  testDatabase,
} from '@platform/testing';
import { pulse as pulseService } from '@platform/pulse';
import { request } from 'undici';
import { SERVICES } from '../src/index';
import { migratedFor } from './helpers';

// Issue 38, item 2: OpenTelemetry traces. A client's traceparent is honoured by the gateway and
// carried to the proxied service (processes started with the SDK, exporting over OTLP/HTTP JSON to
// a receiver of the test's); a job queued inside a span runs in that trace.

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}
interface OtlpBody {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

/** An OTLP/HTTP receiver: the spans it was sent, with the service that sent each. */
function otlpReceiver() {
  const spans: Array<OtlpSpan & { service: string }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.includes('json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as OtlpBody;
        for (const rs of body.resourceSpans) {
          const service =
            rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const scope of rs.scopeSpans)
            for (const span of scope.spans) spans.push({ ...span, service });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, spans };
}

it('runs a job in the trace of the request that queued it', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  (globalThis as { __platformTracing?: boolean }).__platformTracing = true;
  const db = await testDatabase(migratedService(pulseService));
  const log = { debug() {}, info() {}, error() {} };
  const queue = new JobQueue(db.schema('pulse'), log, { pollMs: 50 });
  try {
    await migrateSchema(db, 'pulse', pulseService.migrations);
    await migrateCore(db, 'pulse');
    const seen: string[] = [];
    const job = queue.define<{ n: number }>({
      kind: 'traced',
      handler: async () => {
        seen.push(trace.getActiveSpan()?.spanContext().traceId ?? 'none');
      },
    });
    const tracer = trace.getTracer('test');
    const queued = await tracer.startActiveSpan('request', async (span) => {
      const stored = await job.enqueue({ n: 1 });
      span.end();
      return { stored, traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
    });
    const { rows } = await sql<{ trace_context: { traceparent: string } }>`
      select trace_context from pulse.jobs where id = ${queued.stored.id}`.execute(db.kysely);
    expect(rows[0].trace_context.traceparent).toBe(`00-${queued.traceId}-${queued.spanId}-01`);
    // Another poll, later, with no request around it: the stored context is its parent.
    await queue.startPolling();
    await eventually(() => seen.length === 1, { what: 'the job run' });
    expect(seen).toEqual([queued.traceId]);
    const run = exporter.getFinishedSpans().find((s) => s.name === 'job traced');
    expect(run?.spanContext().traceId).toBe(queued.traceId);
    expect(run?.parentSpanContext?.spanId).toBe(queued.spanId);
  } finally {
    await queue.stop();
    await db.close();
    (globalThis as { __platformTracing?: boolean }).__platformTracing = false;
    trace.disable();
    context.disable();
    propagation.disable();
  }
});

const root = join(__dirname, '..', '..', '..');
const removals: Array<() => Promise<void>> = [];
afterAll(() => Promise.all(removals.map((remove) => remove())));
async function storage(preset: Parameters<typeof processStorage>[0]) {
  const made = await processStorage(preset);
  removals.push(made.remove);
  return made.env;
}

it('carries a client traceparent through the gateway to a proxied service, over OTLP', async () => {
  const receiver = otlpReceiver();
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
  // pulse: preloaded by NODE_OPTIONS (as a container runs any service); the gateway's main.ts
  // loads the SDK itself, first.
  const pulse = await startProcess(
    join(root, 'apps/pulse/dist/main.js'),
    {
      ...(await storage(migratedService(pulseService))),
      ...otel,
      OTEL_SERVICE_NAME: 'pulse',
      NODE_OPTIONS: `--require ${join(root, 'libs/core/dist/tracing-preload.js')}`,
    },
    { timeoutMs: 90_000 },
  );
  const gateway = await startProcess(
    join(root, 'apps/gateway/dist/main.js'),
    {
      ...(await storage(migratedFor(SERVICES))),
      ...otel,
      OTEL_SERVICE_NAME: 'gateway',
      PULSE_PROXY_URL: pulse.url,
      LOG_LEVEL: 'info',
    },
    { timeoutMs: 90_000 },
  );
  try {
    const traceId = randomBytes(16).toString('hex');
    const parent = randomBytes(8).toString('hex');
    const res = await request(`${gateway.url}/api/v1/pulse/events`, {
      headers: { traceparent: `00-${traceId}-${parent}-01` },
    });
    await res.body.dump();
    expect(res.statusCode).toBe(200);
    const spans = await eventually(
      () => {
        const mine = receiver.spans.filter((s) => s.traceId === traceId);
        return mine.some((s) => s.service === 'pulse' && s.kind === 2) && mine;
      },
      { timeout: 15_000, what: 'the spans of both processes' },
    );
    const server = spans.find((s) => s.service === 'gateway' && s.kind === 2);
    expect(server?.parentSpanId).toBe(parent);
    // The gateway's call to pulse (a client span), and pulse's server span under it.
    const client = spans.find((s) => s.service === 'gateway' && s.kind === 3);
    const upstream = spans.find((s) => s.service === 'pulse' && s.kind === 2);
    expect(client).toBeDefined();
    expect(upstream?.parentSpanId).toBe(client?.spanId);
    // The gateway's access log line carries the trace id.
    expect(gateway.output.some((l) => l.includes(`"trace_id":"${traceId}"`))).toBe(true);
  } finally {
    await pulse.stop();
    await gateway.stop();
    receiver.server.close();
  }
}, 240_000);
