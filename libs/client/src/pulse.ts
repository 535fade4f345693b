import { call, type Transport } from './transport.js';

export interface PulseEvent {
  id: string;
  name: string;
  properties: Record<string, unknown>;
  userId: string | null;
  sessionId: string | null;
  timestamp: string;
}

export interface EventInput {
  /** Client-chosen id: sending it again does not store the event twice. */
  id?: string;
  name: string;
  properties?: Record<string, unknown>;
  userId?: string;
  sessionId?: string;
  timestamp?: string;
}

export interface EventFilter {
  name?: string;
  userId?: string;
  sessionId?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

const BASE = '/api/v1/pulse';

/** Analytics (spec 4.7). */
export class PulseClient {
  constructor(private readonly transport: Transport) {}

  track(event: EventInput) {
    return call<PulseEvent>(this.transport, {
      method: 'POST',
      path: `${BASE}/events`,
      body: event,
    });
  }

  trackBatch(events: EventInput[]) {
    return call<{ ingested: number; duplicates: number }>(this.transport, {
      method: 'POST',
      path: `${BASE}/events/batch`,
      body: { events },
    });
  }

  listEvents(filter: EventFilter = {}) {
    return call<PulseEvent[]>(this.transport, {
      method: 'GET',
      path: `${BASE}/events`,
      query: { ...filter },
    });
  }

  getEvent(id: string) {
    return call<PulseEvent>(this.transport, {
      method: 'GET',
      path: `${BASE}/events/${encodeURIComponent(id)}`,
    });
  }

  topEvents(filter: { from?: string; to?: string; limit?: number } = {}) {
    return call<Array<{ name: string; count: number }>>(this.transport, {
      method: 'GET',
      path: `${BASE}/reports/top-events`,
      query: filter,
    });
  }
}
