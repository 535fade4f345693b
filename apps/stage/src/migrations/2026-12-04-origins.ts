import { sql, type Kysely } from '@platform/db';

/** What @stage/inference and the workflow blocks a backend may run need (frozen here). */
const DEFAULT_SCOPES = [
  'inference:invoke',
  'communication:write',
  'billing:write',
  'pulse:ingest',
  'ledger:write',
];

// Frozen: never edit a migration that has shipped; add a new one.
// Apps on origins of their own (issue 32): who may visit (`private`: people signed in to the
// platform, handed off to the app's origin; `public`: anyone), the origins its pages may
// connect to besides their own, the scopes its backend's platform calls carry, and who last
// published or changed it, with the role they had then (the backend acts for them, never with
// more). Existing apps stay private, with the scopes their modules and workflow blocks need, and
// act for whoever published them first.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('apps')
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
    .addColumn('connect_origins', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('scopes', 'jsonb', (c) =>
      c.notNull().defaultTo(sql`${sql.lit(JSON.stringify(DEFAULT_SCOPES))}::jsonb`),
    )
    .addColumn('publisher_role', 'text', (c) => c.notNull().defaultTo('member'))
    .addColumn('published_by', 'text')
    .execute();
  // Through the query builder, which names the service's schema (raw SQL would not).
  await (db as Kysely<{ apps: { published_by: string | null } }>)
    .updateTable('apps')
    .set({ published_by: sql<string>`created_by` })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('apps')
    .dropColumn('visibility')
    .dropColumn('connect_origins')
    .dropColumn('scopes')
    .dropColumn('publisher_role')
    .dropColumn('published_by')
    .execute();
}
