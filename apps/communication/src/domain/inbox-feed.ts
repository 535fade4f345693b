import type { EventEmitter } from 'node:events';
import type { CommunicationDb, InboxRow } from '../database.js';
import { inboxFeed } from '../repositories/inbox.js';

/** How often the live streams look for messages other instances wrote (this one's wake them). */
const POLL_MS = 1000;
/**
 * How far behind its cursor a stream reads again: `seq` is taken at insert, so a message may
 * commit after one with a higher `seq` that a stream sent already; it is sent then (once: by id).
 */
export const SEQ_WINDOW = 100;
const LIMIT = 200;

/** One open stream: its recipient, cursor and what it was sent. */
export interface Subscriber {
  recipient: string;
  /** The highest `seq` sent (at the start: the last one the client has, or the newest). */
  after: number;
  /** The unread count last sent. */
  unread: number;
  message(row: InboxRow): void;
  count(unread: number): void;
}

interface State {
  sub: Subscriber;
  /** Ids sent (or there when it opened) with `seq` inside the window, by id. */
  sent: Map<string, number>;
  started: boolean;
}

/**
 * The live streams of one instance: one poller for all of them, a single query a tick for every
 * recipient with a stream open, fanned out in memory; woken at once when this instance writes.
 */
export class InboxFeed {
  private readonly states = new Set<State>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;

  constructor(
    private readonly db: CommunicationDb,
    private readonly log: { error(obj: object, msg: string): void },
    emitter: EventEmitter,
  ) {
    emitter.on('message', (to: string) => {
      if ([...this.states].some((s) => s.sub.recipient === to)) this.soon(0);
    });
  }

  /** Streams `sub` its recipient's new messages and count changes until the answer is called. */
  subscribe(sub: Subscriber): () => void {
    const state: State = { sub, sent: new Map(), started: false };
    this.states.add(state);
    this.soon(0);
    return () => {
      this.states.delete(state);
      if (this.states.size === 0) clearTimeout(this.timer);
    };
  }

  private soon(ms: number) {
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick() {
    this.running = true;
    try {
      do {
        this.again = false;
        await this.poll();
      } while (this.again && this.states.size > 0);
    } catch (error) {
      this.log.error({ err: error }, 'communication inbox: reading for the live streams failed');
    } finally {
      this.running = false;
      if (this.states.size > 0) this.soon(POLL_MS);
    }
  }

  private async poll() {
    const byRecipient = new Map<string, State[]>();
    for (const state of this.states)
      byRecipient.set(state.sub.recipient, [
        ...(byRecipient.get(state.sub.recipient) ?? []),
        state,
      ]);
    if (byRecipient.size === 0) return;
    const wanted = [...byRecipient].map(([recipient, states]) => ({
      recipient,
      after: Math.max(0, Math.min(...states.map((s) => s.sub.after)) - SEQ_WINDOW),
    }));
    for (const { recipient, unread, messages } of await inboxFeed(this.db, wanted, LIMIT)) {
      if (messages.length === LIMIT) this.again = true;
      for (const state of byRecipient.get(recipient) ?? []) {
        if (!this.states.has(state)) continue;
        this.fan(state, messages);
        if (unread !== state.sub.unread) state.sub.count((state.sub.unread = unread));
      }
    }
  }

  /** Sends a stream the messages it has not had. */
  private fan(state: State, messages: InboxRow[]) {
    const { sub, sent } = state;
    for (const row of messages) {
      const seq = Number(row.seq);
      if (sent.has(row.id) || seq <= sub.after - SEQ_WINDOW) continue;
      sent.set(row.id, seq);
      // Those there when the stream opened, up to its cursor, the client has.
      if (!state.started && seq <= sub.after) continue;
      sub.after = Math.max(sub.after, seq);
      sub.message(row);
    }
    state.started = true;
    for (const [id, seq] of sent) if (seq <= sub.after - SEQ_WINDOW) sent.delete(id);
  }
}
