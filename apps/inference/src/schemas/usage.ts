import { Type } from '@platform/core';
import type { RequestRow } from '../database.js';

const Int = Type.Integer();
export const RequestSchema = Type.Object({
  id: Type.String(),
  providerId: Type.Union([Type.String(), Type.Null()]),
  provider: Type.Union([Type.String(), Type.Null()]),
  model: Type.Union([Type.String(), Type.Null()]),
  kind: Type.String({ description: 'chat, stream, embed, image or transcribe' }),
  status: Type.String({ description: 'ok, error or aborted (the client left)' }),
  inputTokens: Type.Union([Int, Type.Null()]),
  outputTokens: Type.Union([Int, Type.Null()]),
  estimated: Type.Boolean({ description: 'The provider reported no usage: tokens estimated' }),
  attempts: Int,
  durationMs: Int,
  timeToFirstTokenMs: Type.Union([Int, Type.Null()]),
  costMicros: Type.Union([Int, Type.Null()], {
    description: 'US micro-dollars; null when the model has no price',
  }),
  error: Type.Union([Type.String(), Type.Null()]),
  requestId: Type.Union([Type.String(), Type.Null()]),
  app: Type.Union([Type.String(), Type.Null()]),
  createdBy: Type.Union([Type.String(), Type.Null()], {
    description:
      'Who made the call: an email, key:<name> for a team key; null for calls logged before ownership',
  }),
  keyId: Type.Union([Type.String(), Type.Null()], {
    description: 'The platform API key that made the call (its id); null otherwise',
  }),
  cached: Type.Boolean({ description: 'Answered from the response cache: no provider, no cost' }),
  created: Type.String({ format: 'date-time' }),
});

export const SummarySchema = Type.Object({
  totalRequests: Int,
  totalErrors: Int,
  totalInputTokens: Int,
  totalOutputTokens: Int,
  totalTokens: Int,
  avgDurationMs: Int,
  totalAborted: Int,
  totalCostMicros: Int,
});

export const toRequest = (r: RequestRow) => ({
  id: r.id,
  providerId: r.provider_id,
  provider: r.provider,
  model: r.model,
  kind: r.kind,
  status: r.status,
  inputTokens: r.input_tokens,
  outputTokens: r.output_tokens,
  estimated: r.estimated,
  attempts: r.attempts,
  durationMs: r.duration_ms,
  timeToFirstTokenMs: r.ttft_ms,
  costMicros: r.cost_micros === null ? null : Number(r.cost_micros),
  error: r.error,
  requestId: r.request_id,
  app: r.app,
  createdBy: r.created_by,
  keyId: r.key_id,
  cached: r.cached,
  created: r.created_at.toISOString(),
});
