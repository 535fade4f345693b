import { eventHash, personalHash } from './chain.js';
import type { ChainHead, EventRow, LedgerDb } from '../database.js';
import { extendChain, findIds, withChainHeadLocked } from '../repositories/events.js';

/** An event as reported: what the chain adds to it is linked in by `appendEvents`. */
export type NewEvent = Omit<
  EventRow,
  'seq' | 'prev_hash' | 'personal_hash' | 'hash' | 'anonymized_at'
>;

/** The most events one transaction appends. */
const MAX_GROUP = 500;

/** Links events to the chain after `head`: their seq, hashes and the hash each follows. */
function link(events: NewEvent[], head: ChainHead): EventRow[] {
  let { seq, hash } = head;
  return events.map((event) => {
    seq += 1;
    const personal = personalHash(event);
    const row = {
      ...event,
      seq,
      prev_hash: hash,
      personal_hash: personal,
      hash: eventHash({ ...event, seq }, personal, hash),
      anonymized_at: null,
    };
    hash = row.hash;
    return row;
  });
}

/**
 * Appends events at the end of the chain in one transaction. The chain head row is locked first
 * (`FOR UPDATE`), so appends from any number of requests and processes form one linear chain.
 */
export function appendEvents(db: LedgerDb, events: NewEvent[]): Promise<EventRow[]> {
  return withChainHeadLocked(db, async (trx, head) => {
    const rows = link(events, head);
    await extendChain(trx, rows);
    return rows;
  });
}

interface Pending {
  event: NewEvent;
  resolve: (row: EventRow) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the chain admits one append transaction at a time, so requests that arrive while
 * one is under way wait and go together in the next (up to MAX_GROUP). Each request is answered
 * once its own transaction has committed. When a group fails, its events are retried one by one,
 * so that one bad event fails only its own request.
 */
export class ChainAppender {
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;

  constructor(private readonly db: LedgerDb) {}

  append(event: NewEvent): Promise<EventRow> {
    return new Promise((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      if (!this.flushing) this.flushing = this.flush();
    });
  }

  /** Resolves once everything queued so far is written (or failed). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    // `flushing` is cleared in the same tick as the check that found the queue empty, so an
    // append that comes later always starts a new flush.
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, MAX_GROUP));
    } finally {
      this.flushing = undefined;
    }
  }

  /** Appends a group in one transaction; when that fails, each of its events in its own. */
  private async commit(group: Pending[]): Promise<void> {
    try {
      const events = group.map((p) => p.event);
      const rows = await appendEvents(this.db, events);
      group.forEach((p, i) => p.resolve(rows[i]));
    } catch (error) {
      if (group.length === 1) group[0].reject(error);
      else for (const pending of group) await this.commit([pending]);
    }
  }
}

/**
 * Appends, in order, those of `events` whose id is not in the chain yet (a redelivery of the same
 * outbox rows appends nothing): the check and the append under the chain head's lock.
 */
export function appendOnce(db: LedgerDb, events: NewEvent[]): Promise<EventRow[]> {
  return withChainHeadLocked(db, async (trx, head) => {
    const known = new Set(
      (await findIds(
        trx,
        events.map((e) => e.id),
      )) as string[],
    );
    const fresh = events.filter(
      (e, i) => !known.has(e.id) && events.findIndex((o) => o.id === e.id) === i,
    );
    const rows = link(fresh, head);
    await extendChain(trx, rows);
    return rows;
  });
}
