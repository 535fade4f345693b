import { jsonb, sql, type Insertable } from '@platform/db';
import type { LoginStateRow, LoginStatesTable, PassportDb } from '../database.js';

export async function insertLoginState(
  db: PassportDb,
  state: Insertable<LoginStatesTable>,
): Promise<void> {
  // Drops the states that expired meanwhile: the table only ever holds the last 10 minutes.
  await db
    .deleteFrom('login_states')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  await db
    .insertInto('login_states')
    .values({ ...state, scopes: jsonb(state.scopes ?? []) })
    .execute();
}

/** Takes a state out (single use): the row as it was, expired or not; undefined when unknown. */
export function takeLoginState(
  db: PassportDb,
  stateHash: string,
): Promise<LoginStateRow | undefined> {
  return db
    .deleteFrom('login_states')
    .where('state_hash', '=', stateHash)
    .returningAll()
    .executeTakeFirst();
}
