import { IsoTimestamp, Nullable, PagedQuery, StampsAt, stampsAt, Type } from '@platform/core';
import type { AlertRow, AnomalyRow } from '../database.js';
import { AlertSchema, toAlert } from './budgets.js';

export const ANOMALY_STATUSES = ['open', 'dismissed', 'resolved'] as const;

export const AnomalyListQuery = PagedQuery({
  service: Type.Optional(Type.String({ description: 'A catalog service id or name' })),
  provider: Type.Optional(Type.String()),
  status: Type.Optional(Type.Enum([...ANOMALY_STATUSES], { title: 'status' })),
});

export const AnomalyParams = Type.Object({ id: Type.String({ description: 'Anomaly id' }) });

export const DismissSchema = Type.Object({
  reason: Type.String({
    minLength: 1,
    maxLength: 1000,
    title: 'reason',
    description: 'Why it is not a problem (kept with the anomaly)',
  }),
});

export const AnomalySchema = Type.Object({
  id: Type.String(),
  scope: Type.Enum(['service', 'provider'], {
    description: 'Whether it is the daily spend of a catalog service or of a provider',
  }),
  service: Nullable(Type.String({ description: 'The catalog service id (scope service)' })),
  serviceName: Nullable(Type.String({ description: "Its name in billing's copy of the catalog" })),
  provider: Nullable(Type.String({ description: 'The provider (scope provider)' })),
  day: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
  expected: Type.Integer({ description: 'Cents: the median of the days before' }),
  actual: Type.Integer({ description: 'Cents spent that day' }),
  size: Type.Integer({ description: 'actual - expected (cents)' }),
  score: Nullable(
    Type.Number({ description: 'The modified z-score; null: the days before never varied' }),
  ),
  mad: Type.Number({ description: 'The median absolute deviation of the days before (cents)' }),
  status: Type.Enum([...ANOMALY_STATUSES], {
    description:
      'open; dismissed (by a person, with a reason); resolved (its day left the lookback, or spend imported late made it ordinary; open again if found again)',
  }),
  resolvedAt: Nullable(IsoTimestamp),
  reason: Nullable(Type.String({ description: 'Why it was dismissed' })),
  dismissedBy: Nullable(Type.String()),
  dismissedAt: Nullable(IsoTimestamp),
  alerts: Type.Array(AlertSchema, { description: 'One per channel it was sent to' }),
  ...StampsAt,
});

export const toAnomaly = (row: AnomalyRow, names: Map<string, string>, alerts: AlertRow[]) => ({
  id: row.id,
  scope: row.scope,
  service: row.scope === 'service' ? row.key : null,
  serviceName: row.scope === 'service' ? (names.get(row.key) ?? null) : null,
  provider: row.scope === 'provider' ? row.key : null,
  day: row.day,
  expected: Number(row.expected),
  actual: Number(row.actual),
  size: Number(row.size),
  score: row.score === null ? null : Number(row.score),
  mad: Number(row.mad),
  status: row.status,
  reason: row.reason,
  dismissedBy: row.dismissed_by,
  dismissedAt: row.dismissed_at && new Date(row.dismissed_at).toISOString(),
  resolvedAt: row.resolved_at && new Date(row.resolved_at).toISOString(),
  alerts: alerts.filter((a) => a.anomaly_id === row.id).map(toAlert),
  ...stampsAt(row.created_at, row.updated_at),
});
