import type { Kysely } from '@platform/db';
import type { ServiceContext } from '@platform/core';
import type { PassportDatabase } from '../database.js';
import type { PassportConfig } from '../config.js';

/** One audit event as the ledger stores it; never a secret in it. */
export interface AuditEvent {
  action:
    | 'user.signin'
    | 'user.signout'
    | 'session.revoked'
    | 'key.created'
    | 'key.revoked'
    | 'provider.connected'
    | 'user.role.changed';
  actor: string;
  resource: string;
  metadata?: Record<string, string | number | boolean | null>;
  /** When it happened (ISO): the ledger keeps it, however late the job reaches it. */
  timestamp: string;
}

/** Records a change and its audit event in one transaction. */
export type Audited = <T>(
  event: Omit<AuditEvent, 'timestamp'>,
  change: (trx: Kysely<PassportDatabase>) => Promise<T>,
) => Promise<T>;

// Attempts before an event is given up (1 s doubling to 5 min between them: about 3 days).
const MAX_ATTEMPTS = 900;

/**
 * The audit trail, through the ledger: each event is a durable job stored in the transaction of
 * the change it records, then sent to the ledger. A ledger that is down delays the trail (the job
 * is retried) and never fails the change. Made once per instance: the state's `audited`.
 */
export function auditTrail(ctx: ServiceContext<PassportDatabase, PassportConfig>): Audited {
  const events = ctx.jobs.define<AuditEvent>({
    kind: 'audit',
    maxAttempts: MAX_ATTEMPTS,
    handler: async (event) => {
      await ctx.platform.ledger.createEvent({ body: { ...event, service: 'passport' } });
    },
  });
  const audited: Audited = async (event, change) => {
    const { record } = await events.start(
      { ...event, timestamp: new Date().toISOString() },
      { record: change },
    );
    return record;
  };
  return audited;
}
