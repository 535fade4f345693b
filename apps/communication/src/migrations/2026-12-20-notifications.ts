import { sql, type Kysely } from '@platform/db';

// Issue 41: templates (versioned), preferences, digests, the inbox, suppressions, routes.
// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('content', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('templates_name_key')
    .on('templates')
    .unique()
    .expression(sql`app_id, lower(name)`)
    .execute();
  await db.schema
    .createTable('template_versions')
    .addColumn('template_id', 'text', (c) =>
      c.notNull().references('templates.id').onDelete('cascade'),
    )
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('content', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('template_versions_pkey', ['template_id', 'version'])
    .execute();

  await db.schema
    .alterTable('deliveries')
    .addColumn('recipient', 'text')
    .addColumn('category', 'text')
    .addColumn('template_id', 'text')
    .addColumn('template_version', 'integer')
    .addColumn('locale', 'text')
    .addColumn('slack', 'jsonb')
    .addColumn('route', 'jsonb')
    .addColumn('send_at', 'timestamptz')
    // Delayed and not yet handed to the delivery job (the schedule's sweep hands it over).
    .addColumn('scheduled', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex('deliveries_scheduled_idx')
    .on('deliveries')
    .column('send_at')
    .where(sql.ref('scheduled'), '=', true)
    .execute();
  // The provider events webhook finds a delivery by the provider's message id.
  await db.schema
    .createIndex('deliveries_provider_message_idx')
    .on('deliveries')
    .column('provider_message_id')
    .where(sql.ref('provider_message_id'), 'is not', null)
    .execute();
  await db.schema.alterTable('delivery_attempts').addColumn('channel_id', 'text').execute();

  await db.schema
    .createTable('preferences')
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('preferences_pkey', ['recipient', 'category', 'channel'])
    .execute();

  await db.schema
    .createTable('digests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('send', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('delivery_id', 'text')
    .addColumn('flush_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One open digest per app, template and recipient: concurrent sends join the same one.
  await db.schema
    .createIndex('digests_open_key')
    .on('digests')
    .unique()
    .columns(['app_id', 'template_id', 'recipient'])
    .where(sql.ref('status'), '=', 'open')
    .execute();
  // The sweep's due digests (flushed ones are deleted with their items).
  await db.schema
    .createIndex('digests_due_idx')
    .on('digests')
    .column('flush_at')
    .where(sql.ref('status'), '=', 'open')
    .execute();
  await db.schema
    .createTable('digest_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('digest_id', 'text', (c) => c.notNull().references('digests.id').onDelete('cascade'))
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('digest_items_digest_idx')
    .on('digest_items')
    .columns(['digest_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('inbox_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull().unique())
    .addColumn('category', 'text')
    .addColumn('subject', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('read_at', 'timestamptz')
    .addColumn('archived_at', 'timestamptz')
    .addColumn('seq', 'bigserial', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('inbox_messages_recipient_idx')
    .on('inbox_messages')
    .columns(['recipient', 'seq'])
    .execute();
  // The unread count (the bell, every stream's tick).
  await db.schema
    .createIndex('inbox_messages_unread_idx')
    .on('inbox_messages')
    .column('recipient')
    .where(sql<boolean>`read_at is null and archived_at is null`)
    .execute();

  await db.schema
    .createTable('suppressions')
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'suppressions',
    'inbox_messages',
    'digest_items',
    'digests',
    'preferences',
    'template_versions',
    'templates',
  ])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('delivery_attempts').dropColumn('channel_id').execute();
  for (const column of [
    'recipient',
    'category',
    'template_id',
    'template_version',
    'locale',
    'slack',
    'route',
    'send_at',
    'scheduled',
  ])
    await db.schema.alterTable('deliveries').dropColumn(column).execute();
}
