import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `pulse` schema, as the migrations make them. */
export interface PulseDatabase {
  events: EventsTable;
  persons: PersonsTable;
  person_ids: PersonIdsTable;
  event_rollups: EventRollupsTable;
}

export interface EventsTable {
  id: string;
  name: string;
  properties: Record<string, unknown>;
  user_id: string | null;
  session_id: string | null;
  timestamp: Date;
  received_at: Generated<Date>;
}

export interface PersonsTable {
  id: string;
  properties: Record<string, unknown>;
  identified: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Which person a distinct id (an event's `user_id`) names. */
export interface PersonIdsTable {
  distinct_id: string;
  person_id: string;
}

/** Events per name and quarter hour (UTC-aligned), kept by insertEvents: what trends' totals read. */
export interface EventRollupsTable {
  name: string;
  slot: Date;
  count: string | number;
}

export type PulseDb = Kysely<PulseDatabase>;
export type EventRow = Selectable<EventsTable>;
export type PersonRow = Selectable<PersonsTable>;
