import {
  IsoTimestamp,
  Name,
  Nullable,
  PagedQuery,
  StampsAt,
  Type,
  stampsAt,
  type Static,
} from '@platform/core';
import { ServiceName } from './classifications.js';
import type { PolicyRow } from '../database.js';

export const POLICY_ACTIONS = ['delete', 'anonymize'] as const;

/** What a scope of `service:<name>` or `action:<action>` names; undefined for `all`. */
export function parseScope(scope: string) {
  const match = /^(service|action):(.+)$/.exec(scope);
  return match ? { kind: match[1] as 'service' | 'action', value: match[2] } : undefined;
}

export const PolicyInputSchema = Type.Object({
  name: Name('policy name'),
  retentionDays: Type.Integer({
    minimum: 1,
    maximum: 36500,
    title: 'retentionDays',
    description: 'Events older than this many days are deleted or anonymized',
  }),
  scope: Type.Optional(
    Type.String({
      pattern: '^(all|service:.+|action:.+)$',
      maxLength: 300,
      default: 'all',
      description:
        'Which events: all, service:<service>, or action:<action> (a trailing * matches a prefix, e.g. action:user.*)',
    }),
  ),
  service: Type.Optional(ServiceName('Only events reported by this service')),
  action: Type.Optional(
    Type.Enum([...POLICY_ACTIONS], {
      default: 'delete',
      description:
        'delete removes the events; anonymize erases actor, metadata and details and keeps the rest',
    }),
  ),
});

export const PolicySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  retentionDays: Type.Integer(),
  scope: Type.String(),
  service: Nullable(Type.String()),
  action: Type.Enum([...POLICY_ACTIONS]),
  ...StampsAt,
  lastAppliedAt: Nullable(IsoTimestamp),
  lastAffected: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Events deleted or anonymized by the last run',
  }),
});
export type Policy = Static<typeof PolicySchema>;

export const toPolicy = (row: PolicyRow): Policy => ({
  id: row.id,
  name: row.name,
  retentionDays: row.retention_days,
  scope: row.scope,
  service: row.service,
  action: row.action,
  ...stampsAt(row.created_at, row.updated_at),
  lastAppliedAt: row.last_applied_at?.toISOString() ?? null,
  lastAffected: row.last_affected,
});

export const ApplyResultSchema = Type.Object({
  policy: Type.String(),
  action: Type.Enum([...POLICY_ACTIONS]),
  cutoff: Type.String({ description: 'Events before this instant were covered' }),
  deleted: Type.Integer(),
  anonymized: Type.Integer(),
});
export type ApplyResult = Static<typeof ApplyResultSchema>;

export const PolicyListQuery = PagedQuery({
  service: Type.Optional(Type.String({ description: 'Only policies on this service' })),
  action: Type.Optional(Type.Enum([...POLICY_ACTIONS])),
});
