import type { PulseDb } from '../database.js';
import {
  addDistinctId,
  ensurePersons,
  lockPersons,
  mergePersons,
  personFor,
  personOf,
  updatePerson,
} from '../repositories/persons.js';

/**
 * What one event does to the person behind its distinct id (PostHog's person model, which
 * Segment's identify and alias map onto).
 */
export interface PersonChange {
  distinctId: string;
  /** `$set`: properties the person has from now on. */
  set?: Record<string, unknown>;
  /** `$set_once`: properties the person gets only if it has none of that name yet. */
  setOnce?: Record<string, unknown>;
  /** `$unset`: property names the person loses. */
  unset?: string[];
  /**
   * `identify`: the person is identified, and the anonymous id `other` (`$anon_distinct_id`,
   * Segment's anonymousId) joins it, its person merged in unless that one is identified already.
   * `alias`: the id `other` (`alias`, Segment's previousId) joins it, its person merged in.
   */
  link?: { kind: 'identify' | 'alias'; other: string };
}

/** Whether the change does more than make sure a person exists. */
export const changesPerson = (change: PersonChange) =>
  change.set !== undefined ||
  change.setOnce !== undefined ||
  change.unset !== undefined ||
  change.link !== undefined;

/** The properties after `$set_once`, `$set` and `$unset`, in PostHog's order. */
function nextProperties(current: Record<string, unknown>, change: PersonChange) {
  const next = { ...current };
  for (const [key, value] of Object.entries(change.setOnce ?? {}))
    if (!(key in next)) next[key] = value;
  Object.assign(next, change.set ?? {});
  for (const key of change.unset ?? []) delete next[key];
  return next;
}

async function link(db: PulseDb, change: PersonChange) {
  const { kind, other } = change.link!;
  let person = await personFor(db, change.distinctId);
  if (other !== change.distinctId) {
    const theirs = await personOf(db, other);
    if (!theirs) await addDistinctId(db, other, person.id);
    else if (theirs.id !== person.id && (kind === 'alias' || !theirs.identified)) {
      await mergePersons(db, person, theirs);
      person = (await personOf(db, change.distinctId))!;
    }
  }
  return person;
}

/**
 * Applies the events' person changes, in order: every distinct id names a person (made in bulk
 * when new), the persons they touch are locked (in a transaction: `db` is one), then identifies,
 * aliases and property changes one after the other, since each may depend on the one before.
 */
export async function applyPersonChanges(db: PulseDb, list: readonly PersonChange[]) {
  await ensurePersons(
    db,
    list.map((change) => change.distinctId),
  );
  await lockPersons(
    db,
    list.flatMap((change) => [change.distinctId, ...(change.link ? [change.link.other] : [])]),
  );
  for (const change of list) {
    if (!changesPerson(change)) continue;
    const person = change.link ? await link(db, change) : (await personOf(db, change.distinctId))!;
    const properties =
      change.set || change.setOnce || change.unset
        ? nextProperties(person.properties, change)
        : undefined;
    const identified = change.link?.kind === 'identify' && !person.identified;
    if (properties || identified) await updatePerson(db, person.id, { properties, identified });
  }
}
