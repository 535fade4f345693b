import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Budgets and alerts, anomalies (issue 39, items 4 and 5). `alerts` is the outbox of the messages
// billing sends through communication: one row per budget, period, threshold and basis (or per
// anomaly and channel), whose unique `key` is the claim that makes each alert happen once,
// whichever instance evaluates and however often. A budget row keeps the figures of its last
// evaluation (`figures`, `status`, `evaluated_at`): reading budgets computes no spend.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('budgets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('filter_owner', 'text')
    .addColumn('filter_service', 'text')
    .addColumn('filter_provider', 'text')
    .addColumn('filter_tag', 'text')
    .addColumn('thresholds', 'jsonb', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('channel_name', 'text')
    .addColumn('created_by', 'text')
    .addColumn('team', 'text')
    .addColumn('figures', 'jsonb')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('ok'))
    .addColumn('evaluated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('budgets_name_key')
    .on('budgets')
    .unique()
    .expression(sql`lower(name)`)
    .execute();

  await db.schema
    .createTable('anomalies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('expected', 'bigint', (c) => c.notNull())
    .addColumn('actual', 'bigint', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('score', 'double precision')
    .addColumn('mad', 'double precision', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('reason', 'text')
    .addColumn('dismissed_by', 'text')
    .addColumn('dismissed_at', 'timestamptz')
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('judged_at', 'timestamptz')
    .addColumn('recorded_at', 'timestamptz')
    .addColumn('record_started_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('anomalies_scope_key_day_key', ['scope', 'key', 'day'])
    .execute();
  await db.schema.createIndex('anomalies_day_idx').on('anomalies').columns(['day', 'id']).execute();
  await db.schema
    .createIndex('anomalies_open_idx')
    .on('anomalies')
    .column('judged_at')
    .where(sql.ref('status'), '=', 'open')
    .execute();

  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('budget_id', 'text', (c) => c.references('budgets.id').onDelete('cascade'))
    .addColumn('anomaly_id', 'text', (c) => c.references('anomalies.id').onDelete('cascade'))
    .addColumn('period', 'text')
    .addColumn('threshold', 'integer')
    .addColumn('basis', 'text')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('delivery_id', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('recorded_at', 'timestamptz')
    .addColumn('record_started_at', 'timestamptz')
    .addColumn('locked_until', 'timestamptz')
    .addColumn('lease', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('alerts_budget_idx')
    .on('alerts')
    .columns(['budget_id', 'period'])
    .execute();
  await db.schema.createIndex('alerts_anomaly_idx').on('alerts').column('anomaly_id').execute();
  // The outbox's work, each leased apart: alerts to send, and budget alerts only to record.
  await db.schema
    .createIndex('alerts_pending_idx')
    .on('alerts')
    .columns(['locked_until', 'created_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('alerts_unrecorded_idx')
    .on('alerts')
    .columns(['locked_until', 'created_at'])
    .where(sql<boolean>`recorded_at is null and budget_id is not null and status <> 'pending'`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['alerts', 'anomalies', 'budgets'])
    await db.schema.dropTable(table).execute();
}
