import { Migrator, sql, type Migration } from 'kysely';
import type { PlatformDatabase } from './database.js';

export type Migrations = Record<string, Migration>;

/**
 * Brings one service's schema to its latest migration. Each service owns a Postgres schema named
 * after it, with its own migration tables inside it, so services migrate independently.
 */
export async function migrateSchema(
  db: PlatformDatabase,
  schema: string,
  migrations: Migrations,
): Promise<string[]> {
  await sql`create schema if not exists ${sql.id(schema)}`.execute(db.kysely);
  const migrator = new Migrator({
    db: db.schema(schema),
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((r) => r.status === 'Error');
  if (error || failed) {
    const cause = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(
      `Migration ${failed?.migrationName ?? ''} of schema "${schema}" failed: ${cause}`,
      {
        cause: error,
      },
    );
  }
  return results.map((r) => r.migrationName);
}
