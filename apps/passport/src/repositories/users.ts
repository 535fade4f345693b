import { sql } from '@platform/db';
import type { PassportDb } from '../database.js';
import { announceRevocation } from './credentials.js';

/** Everyone known to the platform (signed in once, or given a role), with their last sign-in. */
export function listPeople(
  db: PassportDb,
  page: { limit: number; offset: number; email?: string },
) {
  const seen = db
    .selectFrom('sessions')
    .select([sql<string>`lower(email)`.as('email'), sql<Date>`max(created_at)`.as('signed_in')])
    .groupBy(sql`lower(email)`);
  return db
    .selectFrom(seen.as('s'))
    .fullJoin('users as u', 'u.email', 's.email')
    .select([
      sql<string>`coalesce(u.email, s.email)`.as('email'),
      'u.role',
      'u.updated_by',
      'u.updated_at',
      's.signed_in',
    ])
    .$if(page.email !== undefined, (q) =>
      q.where(sql<boolean>`coalesce(u.email, s.email) = ${page.email!.toLowerCase()}`),
    )
    .orderBy(sql`coalesce(u.email, s.email)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The role an admin set for a person (one indexed read), if any. */
export async function roleSetFor(db: PassportDb, email: string) {
  const row = await db
    .selectFrom('users')
    .select('role')
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  return row?.role;
}

export function findPerson(db: PassportDb, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** Sets a person's role; every process forgets the credentials it believed (next request: new role). */
export async function setRole(db: PassportDb, email: string, role: string, by: string) {
  const row = await db
    .insertInto('users')
    .values({ email: email.toLowerCase(), role: role as 'member', updated_by: by })
    .onConflict((oc) =>
      oc
        .column('email')
        .doUpdateSet({ role: role as 'member', updated_by: by, updated_at: sql`now()` }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  await announceRevocation(db);
  return row;
}
