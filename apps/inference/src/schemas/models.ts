import { Type } from '@platform/core';
import type { ModelListRow } from '../repositories/models.js';

export const ModelSchema = Type.Object({
  name: Type.String(),
  providerId: Type.String(),
  provider: Type.String(),
  created: Type.String({ format: 'date-time' }),
});

/** A synced model row (with its provider's name) as the API shows it. */
export const toModel = (r: ModelListRow) => ({
  name: r.name,
  providerId: r.provider_id,
  provider: r.provider,
  created: r.created_at.toISOString(),
});

export const SyncResultSchema = Type.Array(
  Type.Object({
    provider: Type.String(),
    models: Type.Integer(),
    added: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
  }),
);
