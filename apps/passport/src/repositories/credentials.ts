import { sql } from '@platform/db';
import type { PassportDb } from '../database.js';

/** The channel on which every process hears that some key or session was revoked. */
export const REVOCATIONS = 'passport_credentials';

/** Announces a revocation to every process on the database, when `db`'s transaction commits. */
export async function announceRevocation(db: PassportDb) {
  await sql`select pg_notify(${REVOCATIONS}, '')`.execute(db);
}
