import { IsoTimestamp, Nullable, PageQuery, Type } from '@platform/core';
import type { SuppressionsTable } from '../database.js';
import type { Selectable } from '@platform/db';

export const ProviderEventSchema = Type.Object({
  type: Type.Enum(['bounce', 'complaint', 'delivered']),
  deliveryId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  messageId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1000, description: 'The SMTP Message-ID' }),
  ),
  address: Type.String({ minLength: 3, maxLength: 320, description: 'The recipient address' }),
  hard: Type.Optional(
    Type.Boolean({ description: 'A permanent bounce (5xx): the address is suppressed' }),
  ),
});

export const ProviderEventResultSchema = Type.Object({
  deliveryId: Nullable(Type.String()),
  status: Nullable(Type.String({ description: "The delivery's status now" })),
  suppressed: Type.Boolean({ description: 'Whether the address is suppressed now' }),
});

export const SuppressionSchema = Type.Object({
  address: Type.String(),
  reason: Type.String(),
  deliveryId: Nullable(Type.String()),
  createdAt: IsoTimestamp,
});

export const SuppressionListQuery = Type.Object({ ...PageQuery });
export const SuppressionParams = Type.Object({
  address: Type.String({ minLength: 1, maxLength: 320 }),
});

export const toSuppression = (row: Selectable<SuppressionsTable>) => ({
  address: row.address,
  reason: row.reason,
  deliveryId: row.delivery_id,
  createdAt: row.created_at.toISOString(),
});
