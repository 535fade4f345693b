import { sql, type Generated, type Kysely, type Selectable } from '@platform/db';

export interface EventsTable {
  seq: number;
  id: string;
  action: string;
  actor: string | null;
  resource: string | null;
  service: string | null;
  metadata: Record<string, unknown>;
  details: Record<string, unknown>;
  timestamp: Date;
  prev_hash: string;
  personal_hash: string;
  hash: string;
  anonymized_at: Date | null;
}

export interface ChainHeadTable {
  id: number;
  seq: number;
  hash: string;
}

export interface CheckpointsTable {
  next_seq: number;
  after_hash: string;
  prev_hash: string;
  policy: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PoliciesTable {
  id: string;
  name: string;
  retention_days: number;
  scope: string;
  service: string | null;
  action: 'delete' | 'anonymize';
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  last_applied_at: Date | null;
  last_affected: number | null;
}

export interface ClassificationsTable {
  id: string;
  service_id: string;
  field: string;
  level: string;
  justification: string;
  ppi_category: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface LedgerDatabase {
  events: EventsTable;
  chain_head: ChainHeadTable;
  checkpoints: CheckpointsTable;
  policies: PoliciesTable;
  classifications: ClassificationsTable;
}

export type LedgerDb = Kysely<LedgerDatabase>;
export type EventRow = Selectable<EventsTable>;
export type PolicyRow = Selectable<PoliciesTable>;
export type ClassificationRow = Selectable<ClassificationsTable>;
export type CheckpointRow = Selectable<CheckpointsTable>;

/** jsonb parameters go in as text: both pg and PGlite cast it. */
export const jsonb = (value: Record<string, unknown>) =>
  JSON.stringify(value) as unknown as Record<string, unknown>;

// Events

export interface EventFilter {
  action?: string;
  actor?: string;
  resource?: string;
  service?: string;
  from?: Date;
  to?: Date;
}

export function listEvents(
  db: LedgerDb,
  filter: EventFilter,
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom('events').selectAll();
  for (const column of ['action', 'actor', 'resource', 'service'] as const) {
    const value = filter[column];
    if (value !== undefined) query = query.where(column, '=', value);
  }
  if (filter.from) query = query.where('timestamp', '>=', filter.from);
  if (filter.to) query = query.where('timestamp', '<=', filter.to);
  return query
    .orderBy('timestamp', 'desc')
    .orderBy('seq', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export const findEvent = (db: LedgerDb, id: string) =>
  db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();

// Policies

export const listPolicies = (
  db: LedgerDb,
  filter: { service?: string; action?: string },
  page: { limit: number; offset: number },
) => {
  let query = db.selectFrom('policies').selectAll();
  if (filter.service !== undefined) query = query.where('service', '=', filter.service);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action as never);
  return query
    .orderBy(sql`lower(name)`)
    .orderBy('name')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
};

export const allPolicies = (db: LedgerDb) =>
  db
    .selectFrom('policies')
    .selectAll()
    .orderBy(sql`lower(name)`)
    .orderBy('name')
    .execute();

// Classifications

export const listClassifications = (
  db: LedgerDb,
  filter: { serviceId?: string; level?: string },
  page: { limit: number; offset: number },
) => {
  let query = db.selectFrom('classifications').selectAll();
  if (filter.serviceId !== undefined) query = query.where('service_id', '=', filter.serviceId);
  if (filter.level !== undefined) query = query.where('level', '=', filter.level);
  return query
    .orderBy('service_id')
    .orderBy('field')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
};

export const findClassification = (db: LedgerDb, id: string) =>
  db.selectFrom('classifications').selectAll().where('id', '=', id).executeTakeFirst();
