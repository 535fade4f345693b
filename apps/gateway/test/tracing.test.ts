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
import { communication as communicationService } from '@platform/communication';
import { pulse as pulseService } from '@platform/pulse';
import { request } from 'undici';
import { SERVICES } from '../src/index';
import { migratedFor } from './helpers';

// Issue 38, item 2: OpenTelemetry traces. A client's traceparent is honoured by the gateway and
// carried to the proxied service, into the job it queues and out to the provider that job calls
// (processes started with the SDK, exporting over OTLP/HTTP JSON to a receiver of the test's).

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: { stringValue?: string } }>;
}
interface OtlpBody {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

/**
 * An OTLP/HTTP receiver: the spans it was sent, with the service that sent each; and a webhook
 * receiver on `/hook` (a provider the platform calls): the traceparent of each call.
 */
function otlpReceiver() {
  const spans: Array<OtlpSpan & { service: string }> = [];
  const hooks: Array<string | undefined> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/hook') hooks.push(req.headers.traceparent as string | undefined);
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
  return { server, spans, hooks };
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

it('follows one request through the gateway, a proxied service, its job and the provider it calls', async () => {
  const receiver = otlpReceiver();
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '100' };
  // communication: preloaded by NODE_OPTIONS (as a container runs any service); the gateway's
  // main.ts loads the SDK itself, first. A webhook channel calls the receiver's /hook.
  const communication = await startProcess(
    join(root, 'apps/communication/dist/main.js'),
    {
      ...(await storage(migratedService(communicationService))),
      ...otel,
      OTEL_SERVICE_NAME: 'communication',
      NODE_OPTIONS: `--require ${join(root, 'libs/core/dist/tracing-preload.js')}`,
      COMMUNICATION_ALLOW_PRIVATE_TARGETS: 'true',
      CHANNEL_HOOK_SECRET: 'the-webhook-secret-of-the-trace',
      CHANNEL_HOOK_SECRET_DESTINATION: '127.0.0.1',
    },
    { timeoutMs: 90_000 },
  );
  const gateway = await startProcess(
    join(root, 'apps/gateway/dist/main.js'),
    {
      ...(await storage(migratedFor(SERVICES))),
      ...otel,
      OTEL_SERVICE_NAME: 'gateway',
      COMMUNICATION_PROXY_URL: communication.url,
      LOG_LEVEL: 'info',
    },
    { timeoutMs: 90_000 },
  );
  const call = async (path: string, body: object, headers: Record<string, string> = {}) => {
    const res = await request(`${gateway.url}/api/v1/communication${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    await res.body.dump();
    return res.statusCode;
  };
  try {
    const hook = { url: `${endpoint}/hook`, secret: 'env:CHANNEL_HOOK_SECRET' };
    expect(await call('/channels', { name: 'hook', provider: 'webhook', config: hook })).toBe(201);
    expect(await call('/apps/shop/channels', { channelId: 'hook' })).toBe(201);
    const traceId = randomBytes(16).toString('hex');
    const parent = randomBytes(8).toString('hex');
    const traceparent = `00-${traceId}-${parent}-01`;
    expect(await call('/apps/shop/send', { channelId: 'hook', text: 'traced' }, { traceparent })).toBe(202); // prettier-ignore
    const mine = () => receiver.spans.filter((s) => s.traceId === traceId);
    // The webhook call: communication's HTTP client span to /hook (on PostgreSQL its queries are
    // client spans too).
    const isHook = (s: OtlpSpan & { service: string }) =>
      s.service === 'communication' &&
      s.kind === 3 &&
      (s.attributes ?? []).some((a) => a.value.stringValue?.endsWith('/hook') ?? false);
    await eventually(
      () =>
        receiver.hooks.length > 0 &&
        mine().some((s) => s.service === 'communication' && s.name.startsWith('job ')) &&
        mine().some(isHook),
      { timeout: 20_000, what: 'the spans of the request, the job and the webhook call' },
    );
    const spans = mine();
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    /** The services from a span up to the root of its trace. */
    const lineage = (span: OtlpSpan | undefined): string[] => {
      const names: string[] = [];
      for (let s = span; s; s = s.parentSpanId ? byId.get(s.parentSpanId) : undefined)
        names.push(`${(s as OtlpSpan & { service: string }).service}:${s.kind}`);
      return names;
    };
    const server = spans.find((s) => s.service === 'gateway' && s.kind === 2);
    expect(server?.parentSpanId).toBe(parent);
    const job = spans.find((s) => s.service === 'communication' && s.name.startsWith('job '))!;
    const webhook = spans.find(isHook)!;
    // The webhook call under the job, the job under communication's request, that under the
    // gateway's call to it, under the gateway's own server span: one trace, nothing detached.
    expect(lineage(webhook)[0]).toBe('communication:3');
    expect(lineage(job)).toEqual(
      expect.arrayContaining(['communication:2', 'gateway:3', 'gateway:2']),
    );
    expect(lineage(webhook)).toContain(`communication:${job.kind}`);
    expect(lineage(webhook).at(-1)).toBe('gateway:2');
    // The provider got the trace too (W3C traceparent on the webhook call).
    expect(receiver.hooks[0]).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    // The gateway's access log line carries the trace id.
    expect(gateway.output.some((l) => l.includes(`"trace_id":"${traceId}"`))).toBe(true);
  } finally {
    await communication.stop();
    await gateway.stop();
    receiver.server.close();
  }
}, 240_000);
