import { badRequest } from '@platform/core';
import type { PulseDb } from '../database.js';
import { countEvents, insertEvents, type NewEvent } from '../repositories/events.js';
import { ensurePersons } from '../repositories/persons.js';
import { applyPersonChanges, changesPerson, type PersonChange } from './persons.js';
import type { PulseState } from './state.js';

/** One event of a compatible API, as pulse stores it, and what it does to its person. */
export interface Ingested {
  event: NewEvent;
  /** Absent: the event leaves persons alone (PostHog's `$process_person_profile: false`). */
  person?: PersonChange;
}

/** The limit of the native API on names and ids, kept by the compatible ones. */
const MAX_TEXT = 200;

/** A required text of an event (a name, a distinct id): a 400 naming where it is missing. */
export function requiredText(value: unknown, where: string): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || text.trim() === '')
    throw badRequest(`${where} is required (a non-empty string)`);
  if (text.length > MAX_TEXT)
    throw badRequest(`${where} must be at most ${MAX_TEXT} characters long`);
  return text;
}

/** An optional text: undefined when absent, a 400 when it is not text or too long. */
export function optionalText(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return requiredText(value, where);
}

/** An object field, or undefined; a 400 when it is something else. */
export function optionalObject(value: unknown, where: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw badRequest(`${where} must be an object`);
  return value as Record<string, unknown>;
}

/** A time the client sent: undefined when absent, a 400 naming it when it is not one. */
export function optionalTime(value: unknown, where: string): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const time =
    typeof value === 'number'
      ? new Date(value)
      : typeof value === 'string'
        ? new Date(value)
        : null;
  if (!time || Number.isNaN(time.getTime()))
    throw badRequest(`${where} is not a time (an ISO 8601 timestamp)`);
  return time;
}

/** A client's clock may run ahead: an event more than 23 hours in the future happened now. */
export function notInFuture(time: Date, now: Date): Date {
  return time.getTime() - now.getTime() > 23 * 3600_000 ? now : time;
}

/**
 * Stores the events (a retried one, by its id, is not stored twice) and, for those stored now,
 * their person changes, in one transaction (merges and property changes are applied once).
 * Answers how many were stored.
 */
export async function ingest(
  db: PulseDb,
  state: PulseState,
  items: readonly Ingested[],
): Promise<number> {
  // The first copy of an id within one request is the one that counts.
  const byId = new Map<string, Ingested>();
  for (const item of items) if (!byId.has(item.event.id)) byId.set(item.event.id, item);
  const unique = [...byId.values()];
  if (unique.length === 0) return 0;
  if (!unique.some((item) => item.person && changesPerson(item.person))) {
    // Only new ids to give a person (most events): made first, in bulk, then the events, each
    // one statement with no transaction around them; a person made for an event that then fails
    // to be stored is the person its retry needs.
    const ids = unique.flatMap((item) => (item.person ? [item.person.distinctId] : []));
    if (state.knownIds.size > KNOWN_IDS_MAX) state.knownIds.clear();
    const known = state.knownIds;
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) {
      await ensurePersons(db, missing);
      for (const id of missing) known.add(id);
    }
    return (
      await insertEvents(
        db,
        unique.map((item) => item.event),
      )
    ).size;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await store(db, unique);
    } catch (error) {
      // Two requests merging the same persons at once: PostgreSQL picks one to fail; again.
      if (attempt >= 3 || !RETRIED.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
}

/** Past this many distinct ids remembered, the instance forgets them and starts again. */
const KNOWN_IDS_MAX = 100_000;

/** A deadlock, a serialization failure: the transaction may simply be run again. */
const RETRIED = new Set(['40P01', '40001']);

/**
 * The events and their person changes in one transaction; the rollups counted last, so that
 * their rows (shared by every request of the same event names in the same quarter hour) are not
 * held locked while persons are merged.
 */
function store(db: PulseDb, unique: readonly Ingested[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const stored = await insertEvents(
      trx,
      unique.map((item) => item.event),
      { counted: false },
    );
    const changes = unique
      .filter((item) => item.person && stored.has(item.event.id))
      .map((item) => item.person as PersonChange);
    await applyPersonChanges(trx, changes);
    await countEvents(trx, [...stored]);
    return stored.size;
  });
}
