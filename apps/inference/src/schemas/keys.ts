import { Nullable, Type, type Static } from '@platform/core';
import type { KeyLimitsRow } from '../database.js';

const Limit = (max: number, description: string) =>
  Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: max, description })));

/** PUT /keys/:keyId/limits: the key's whole set of limits (a field left out is no limit). */
export const LimitsInputSchema = Type.Object({
  budgetMicros: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        title: 'budgetMicros',
        description: 'Spend allowed per period, in US micro-dollars (1 000 000 = $1); needs period',
      }),
    ),
  ),
  period: Type.Optional(
    Nullable(
      Type.Union([Type.Literal('day'), Type.Literal('month')], {
        title: 'period',
        description: 'The budget is per UTC day or per UTC month',
      }),
    ),
  ),
  rpm: Limit(1_000_000, 'Requests per minute (a UTC minute), counted as they are admitted'),
  tpm: Limit(1_000_000_000, 'Tokens per minute (input and output), counted as calls end'),
  models: Type.Optional(
    Nullable(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        title: 'models',
        description:
          'The models the key may call, as callers name them (fallbacks included; any case)',
      }),
    ),
  ),
  cacheTtlSeconds: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 30 * 86_400,
        title: 'cacheTtlSeconds',
        description:
          "Caches the key's non-streamed chat answers this long unless a request says otherwise (see the cache)",
      }),
    ),
  ),
});
export type LimitsInput = Static<typeof LimitsInputSchema>;

export const LimitsSchema = Type.Object({
  keyId: Type.String(),
  budgetMicros: Nullable(Type.Integer()),
  period: Nullable(Type.String()),
  rpm: Nullable(Type.Integer()),
  tpm: Nullable(Type.Integer()),
  models: Nullable(Type.Array(Type.String())),
  cacheTtlSeconds: Nullable(Type.Integer()),
  updatedBy: Nullable(Type.String()),
  updated: Type.String({ format: 'date-time' }),
});

export const toLimits = (row: KeyLimitsRow): Static<typeof LimitsSchema> => ({
  keyId: row.key_id,
  budgetMicros: row.budget_micros === null ? null : Number(row.budget_micros),
  period: row.period,
  rpm: row.rpm,
  tpm: row.tpm,
  models: row.models,
  cacheTtlSeconds: row.cache_ttl_s,
  updatedBy: row.updated_by,
  updated: new Date(row.updated_at).toISOString(),
});

const Counts = {
  requests: Type.Integer(),
  tokens: Type.Integer(),
  resetsAt: Type.String({ format: 'date-time', description: 'When this window ends' }),
};

export const KeyUsageSchema = Type.Object({
  keyId: Type.String(),
  limits: Nullable(LimitsSchema),
  minute: Type.Object(Counts),
  day: Type.Object({ ...Counts, costMicros: Type.Integer() }),
  month: Type.Object({ ...Counts, costMicros: Type.Integer() }),
  budget: Nullable(
    Type.Object({
      budgetMicros: Type.Integer(),
      period: Type.String(),
      spentMicros: Type.Integer(),
      remainingMicros: Type.Integer({ description: 'Never below 0' }),
      resetsAt: Type.String({ format: 'date-time' }),
    }),
  ),
});

export const KeyParams = Type.Object({
  keyId: Type.String({
    minLength: 1,
    maxLength: 200,
    description: "The key's id (as passport lists it), or its name",
  }),
});
