import type { Kysely } from '@platform/db';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(_db: Kysely<unknown>): Promise<void> {}
