import {
  context,
  propagation,
  ROOT_CONTEXT,
  trace,
  SpanKind,
  SpanStatusCode,
  type Span,
} from '@opentelemetry/api';

// Traces (issue 38, item 2): the OpenTelemetry SDK runs only when OTEL_EXPORTER_OTLP_ENDPOINT is
// set (tracing-preload.ts starts it before anything else loads); otherwise the API below is
// OpenTelemetry's no-op and these helpers cost a check each.

/** Whether this process exports traces (set by tracing-preload.ts once the SDK started). */
export const tracingActive = () =>
  (globalThis as { __platformTracing?: boolean }).__platformTracing === true;

/** The active span's W3C trace context (`traceparent`, `tracestate`), to store with a job. */
export function captureTraceContext(): Record<string, string> | undefined {
  if (!tracingActive()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/**
 * Runs `work` in a span of its own (`name`), a child of the stored trace context when there is
 * one: a job queued by a request joins that request's trace, whichever process runs it.
 */
export async function inSpan<T>(
  name: string,
  stored: Record<string, string> | null | undefined,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> {
  if (!tracingActive()) return work();
  const parent = stored ? propagation.extract(ROOT_CONTEXT, stored) : context.active();
  const tracer = trace.getTracer('@platform/core');
  return tracer.startActiveSpan(
    name,
    { kind: SpanKind.CONSUMER, attributes },
    parent,
    async (span: Span) => {
      try {
        return await work();
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** A pino mixin: every log line written inside a span carries its `trace_id` and `span_id`. */
export function traceMixin(): Record<string, string> {
  if (!tracingActive()) return {};
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
