import { call, httpTransport, injectTransport, PlatformError } from '@platform/client';
import { serviceIdentityHeaders, type PlatformLink } from '../auth/platform.js';
import type { AuthSettings } from '../auth/settings.js';
import type { Logger } from '../jobs/types.js';
import {
  deliverable,
  removeDelivered,
  setAside,
  type OutboxDb,
  type OutboxTable,
} from './outbox.js';

export interface AuditSettings {
  /** Pause before delivering what a request made deliverable, to send neighbours together. */
  batchDelayMs?: number;
  /** A row left pending this long is delivered with outcome `unknown` (its process died). */
  pendingGraceMs: number;
}

const BATCH = 200;

/**
 * The ledger refused the events themselves (400, 413, 422): sending them again cannot help. Any
 * other failure (the ledger off or unreachable, 401/403 of a misconfiguration, 429, 5xx) is
 * retried later with the rows kept in order.
 */
const refused = (error: unknown) =>
  error instanceof PlatformError && [400, 413, 422].includes(error.status);

/** A row as the ledger's `recordChanges` takes it. */
export function changeEvent(service: string, row: OutboxTable) {
  return {
    id: row.id,
    action: row.action,
    // Within the ledger's bounds (else one row would be refused, and hold up every later one).
    actor: row.actor?.slice(0, 320) ?? null,
    actorKind: row.actor_kind,
    resource: row.resource?.slice(0, 500) ?? null,
    service,
    outcome: row.status === 'succeeded' ? ('succeeded' as const) : ('unknown' as const),
    statusCode: row.status_code,
    method: row.method,
    route: row.route,
    requestId: row.request_id,
    timestamp: new Date(row.completed_at ?? row.created_at).toISOString(),
  };
}

/**
 * Delivers the outbox to the ledger, in order, at least once (the ledger records each row's id
 * once, so exactly once in the trail): rows are removed only after the ledger acknowledged them.
 * Runs when a request made a row deliverable (after `batchDelayMs`) and on the periodic job; one
 * run at a time in this instance (others on the same database may run too: the ledger dedupes).
 */
export class AuditRelay {
  private running: Promise<number> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly service: string,
    private readonly db: OutboxDb,
    private readonly link: PlatformLink,
    private readonly auth: AuthSettings,
    private readonly settings: AuditSettings,
    private readonly log: Logger,
  ) {}

  /** Soon: after batchDelayMs, with whatever else became deliverable meanwhile. */
  kick = () => {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run().catch((error: unknown) =>
        this.log.error({ err: error }, 'audit: delivery to the ledger failed; retried later'),
      );
    }, this.settings.batchDelayMs ?? 20);
  };

  /** Delivers everything deliverable now; the number of events delivered. */
  async run(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.deliverAll().finally(() => {
      this.running = undefined;
      if (this.again && !this.closed) {
        this.again = false;
        this.kick();
      }
    });
    return this.running;
  }

  private async deliverAll() {
    let total = 0;
    for (;;) {
      const rows = await deliverable(this.db, this.settings.pendingGraceMs, BATCH);
      if (rows.length === 0) return total;
      const events = rows.map((row) => changeEvent(this.service, row));
      try {
        await this.send(events);
        await removeDelivered(
          this.db,
          rows.map((r) => r.id),
        );
      } catch (error) {
        if (!refused(error)) throw error;
        // One row the ledger will never take must not hold up the others: each on its own.
        for (const [i, row] of rows.entries()) await this.deliverOne(row.id, events[i]);
      }
      total += rows.length;
      if (rows.length < BATCH) return total;
    }
  }

  /** Sends one event; one the ledger refuses as invalid is set aside, and logged in full. */
  private async deliverOne(id: string, event: unknown) {
    try {
      await this.send([event]);
      await removeDelivered(this.db, [id]);
    } catch (error) {
      if (!refused(error)) throw error;
      await setAside(this.db, id);
      this.log.error(
        { err: error, event },
        'audit: the ledger refused this change event; set aside (status rejected), the others go on',
      );
    }
  }

  /** POST /api/v1/ledger/changes as this service, through the gateway (in-process or PLATFORM_URL). */
  private async send(events: unknown[]) {
    const headers = await serviceIdentityHeaders(this.auth, this.service);
    const transport = this.link.app
      ? injectTransport(this.link.app(), headers)
      : this.link.url
        ? httpTransport(this.link.url, { headers })
        : undefined;
    if (!transport)
      throw new Error(`${this.service}: set PLATFORM_URL so that its changes reach the ledger`);
    await call(transport, { method: 'POST', path: '/api/v1/ledger/changes', body: { events } });
  }

  async close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
