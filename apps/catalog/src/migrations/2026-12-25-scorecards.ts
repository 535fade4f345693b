import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// Scorecards (issue 39): rules over what the platform knows of a service, ordered levels each
// requiring some of them, and each service's latest result per scorecard (every rule's status and
// why), replaced at each evaluation; a result goes with its scorecard and with its service. A
// scorecard's `version` counts its changes: a result records the version it was evaluated on, so
// an evaluation of an older version never replaces a newer one. `scorecard_pending` lists the
// services changed since their last evaluation (what the next evaluation job takes; `changes`
// counts the marks, so a mark made while it evaluated is kept for the next one).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scorecards')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('rules', 'jsonb', (c) => c.notNull())
    .addColumn('levels', 'jsonb', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index scorecards_name_idx on catalog.scorecards (lower(name))`.execute(
    db,
  );

  await db.schema
    .createTable('scorecard_results')
    .addColumn('scorecard_id', 'text', (c) =>
      c.notNull().references('scorecards.id').onDelete('cascade'),
    )
    .addColumn('service_id', 'text', (c) =>
      c.notNull().references('services.id').onDelete('cascade'),
    )
    .addColumn('level', 'text')
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('passed', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('rules', 'jsonb', (c) => c.notNull())
    .addColumn('evaluated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('scorecard_results_pkey', ['scorecard_id', 'service_id'])
    .execute();
  await db.schema
    .createIndex('scorecard_results_service_idx')
    .on('scorecard_results')
    .column('service_id')
    .execute();

  await db.schema
    .createTable('scorecard_pending')
    .addColumn('service_id', 'text', (c) =>
      c.primaryKey().references('services.id').onDelete('cascade'),
    )
    .addColumn('since', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changes', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scorecard_pending').execute();
  await db.schema.dropTable('scorecard_results').execute();
  await db.schema.dropTable('scorecards').execute();
}
