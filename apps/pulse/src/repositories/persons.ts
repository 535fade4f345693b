import { newId } from '@platform/core';
import { jsonb, sql } from '@platform/db';
import type { PersonRow, PulseDb } from '../database.js';

/** The person a distinct id names, if any. */
export function personOf(db: PulseDb, distinctId: string): Promise<PersonRow | undefined> {
  return db
    .selectFrom('person_ids')
    .innerJoin('persons', 'persons.id', 'person_ids.person_id')
    .selectAll('persons')
    .where('person_ids.distinct_id', '=', distinctId)
    .executeTakeFirst();
}

/** Every distinct id of a person, sorted. */
export async function distinctIdsOf(db: PulseDb, personId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('person_ids')
    .select('distinct_id')
    .where('person_id', '=', personId)
    .orderBy('distinct_id')
    .execute();
  return rows.map((row) => row.distinct_id);
}

/**
 * Makes sure each distinct id names a person: one new person per id that names none, in three
 * statements whatever their number. An id another request claimed meanwhile keeps its person.
 */
export async function ensurePersons(db: PulseDb, distinctIds: readonly string[]): Promise<void> {
  // In one order everywhere: concurrent requests then lock the same ids in the same order.
  const wanted = [...new Set(distinctIds)].sort();
  if (wanted.length === 0) return;
  const known = await db
    .selectFrom('person_ids')
    .select('distinct_id')
    .where('distinct_id', 'in', wanted)
    .execute();
  const have = new Set(known.map((row) => row.distinct_id));
  const missing = wanted.filter((id) => !have.has(id)).map((id) => ({ id, person: newId() }));
  if (missing.length === 0) return;
  await db
    .insertInto('persons')
    .values(missing.map(({ person }) => ({ id: person, properties: jsonb({}) })))
    .execute();
  const claimed = await db
    .insertInto('person_ids')
    .values(missing.map(({ id, person }) => ({ distinct_id: id, person_id: person })))
    .onConflict((oc) => oc.column('distinct_id').doNothing())
    .returning('person_id')
    .execute();
  const used = new Set(claimed.map((row) => row.person_id));
  const unused = missing.map(({ person }) => person).filter((person) => !used.has(person));
  if (unused.length) await db.deleteFrom('persons').where('id', 'in', unused).execute();
}

/**
 * Locks the persons these ids name for the rest of the transaction, in id order (requests
 * changing the same persons then queue instead of deadlocking): a property change or a merge
 * reads, changes and writes a person whole, and must not overwrite another's at the same time.
 */
export async function lockPersons(db: PulseDb, distinctIds: readonly string[]): Promise<void> {
  if (distinctIds.length === 0) return;
  await db
    .selectFrom('persons')
    .select('id')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('person_ids')
        .select('person_id')
        .where('distinct_id', 'in', [...new Set(distinctIds)]),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** The person of a distinct id, made (with no properties) when it names none yet. */
export async function personFor(db: PulseDb, distinctId: string): Promise<PersonRow> {
  const found = await personOf(db, distinctId);
  if (found) return found;
  await ensurePersons(db, [distinctId]);
  return (await personOf(db, distinctId)) as PersonRow;
}

/** Another distinct id for a person (an id that named no one yet). */
export async function addDistinctId(db: PulseDb, distinctId: string, personId: string) {
  await db
    .insertInto('person_ids')
    .values({ distinct_id: distinctId, person_id: personId })
    .onConflict((oc) => oc.column('distinct_id').doNothing())
    .execute();
}

/**
 * `source` merged into `target`: its ids name `target` from now on, its properties fill those
 * `target` lacks (`target`'s win), it counts as identified if either was, and it is gone.
 */
export async function mergePersons(db: PulseDb, target: PersonRow, source: PersonRow) {
  await db
    .updateTable('person_ids')
    .set({ person_id: target.id })
    .where('person_id', '=', source.id)
    .execute();
  await db
    .updateTable('persons')
    .set({
      properties: jsonb({ ...source.properties, ...target.properties }),
      identified: target.identified || source.identified,
      created_at: sql<Date>`least(created_at, ${source.created_at})`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', target.id)
    .execute();
  await db.deleteFrom('persons').where('id', '=', source.id).execute();
}

/** A person's properties (and whether it is identified) as they are now. */
export async function updatePerson(
  db: PulseDb,
  personId: string,
  changes: { properties?: Record<string, unknown>; identified?: boolean },
) {
  await db
    .updateTable('persons')
    .set({
      ...(changes.properties ? { properties: jsonb(changes.properties) } : {}),
      ...(changes.identified ? { identified: true } : {}),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', personId)
    .execute();
}
