import { sql, type Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
// FOCUS staging at the speed of COPY (issue 39): staged rows land as COPY writes them, typed
// values (amount, date, tags, dimensions) as text that the merge casts, and the index follows the
// file's order (appended to, instead of a random place in it for each row), which made each row
// cost three times as much. Fewer bytes a row: `name` is left to the merge (it is the service or
// the description), and `dimensions` names its columns by their place in the file's header, which
// sync_jobs.focus_header keeps. Rows staged before it keep their values, as text.
const TYPED = { exact_amount: 'numeric', date: 'timestamptz', tags: 'jsonb', dimensions: 'jsonb' };

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('focus_rows_ref_idx').ifExists().execute();
  for (const column of Object.keys(TYPED))
    await db.schema
      .alterTable('focus_rows')
      .alterColumn(column, (c) => c.setDataType('text'))
      .execute();
  await db.schema
    .alterTable('focus_rows')
    .alterColumn('name', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .createIndex('focus_rows_job_idx')
    .on('focus_rows')
    .columns(['sync_job_id', 'row'])
    .execute();
  // The header of the file a FOCUS sync reads (its columns' names, in order).
  await db.schema.alterTable('sync_jobs').addColumn('focus_header', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sync_jobs').dropColumn('focus_header').execute();
  await db.schema.dropIndex('focus_rows_job_idx').execute();
  for (const [column, type] of Object.entries(TYPED))
    await db.schema
      .alterTable('focus_rows')
      .alterColumn(column, (c) =>
        c.setDataType(sql`${sql.raw(type)} using ${sql.ref(column)}::${sql.raw(type)}`),
      )
      .execute();
  await db.schema
    .createIndex('focus_rows_ref_idx')
    .on('focus_rows')
    .columns(['sync_job_id', 'provider', 'provider_ref', 'row'])
    .execute();
}
