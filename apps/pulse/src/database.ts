import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `pulse` schema, as the migrations make them. */
export interface PulseDatabase {
  events: EventsTable;
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

export type PulseDb = Kysely<PulseDatabase>;
export type EventRow = Selectable<EventsTable>;
