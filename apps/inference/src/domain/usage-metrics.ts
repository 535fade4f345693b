import type { Metrics } from '@platform/core';
import type { NewRequest } from '../repositories/requests.js';

/**
 * The inference counters of `GET /metrics` (issue 38): calls, tokens and cost by provider and
 * model, counted as each call's request-log row is queued. Labels are the configured provider
 * and the model asked for (`none` for a call refused before either was known).
 */
export function usageMetrics(metrics: Metrics) {
  const calls = metrics.counter(
    'platform_inference_calls_total',
    'Inference calls, by provider, model, kind (chat, embed, ...) and status (ok, error, ...)',
    ['provider', 'model', 'kind', 'status'],
  );
  const tokens = metrics.counter(
    'platform_inference_tokens_total',
    'Tokens of inference calls, by provider, model and direction (input, output); estimated ones included',
    ['provider', 'model', 'direction'],
  );
  const cost = metrics.counter(
    'platform_inference_cost_microdollars_total',
    'What inference calls cost, in US micro-dollars, by provider and model (cache hits cost 0)',
    ['provider', 'model'],
  );
  return (row: NewRequest) => {
    const labels = { provider: row.provider ?? 'none', model: row.model ?? 'none' };
    calls.inc({ ...labels, kind: row.kind, status: row.status });
    if (row.input_tokens) tokens.inc({ ...labels, direction: 'input' }, row.input_tokens);
    if (row.output_tokens) tokens.inc({ ...labels, direction: 'output' }, row.output_tokens);
    const micros = Number(row.cost_micros ?? 0);
    if (micros > 0) cost.inc(labels, micros);
  };
}
