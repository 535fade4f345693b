import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { EventRow } from '../database.js';

/**
 * The hash chain (README "Tamper evidence"). Every event commits to its content and to the hash
 * of the event before it:
 *
 *   personalHash = SHA-256(JCS({ actor, metadata, details }))
 *   hash         = SHA-256(JCS({ v, seq, id, timestamp, action, resource, service, personalHash, prevHash }))
 *
 * JCS is the JSON Canonicalization Scheme (RFC 8785): sorted keys, one spelling per number, so
 * the hash of what is read back from either database equals the hash of what was written.
 * The personal fields are hashed apart so that anonymization can erase them while the event keeps
 * its hash (its commitment to them) and the chain stays whole.
 */
export const CHAIN_VERSION = 1;
export const GENESIS_HASH = '0'.repeat(64);

const sha256 = (value: unknown) =>
  createHash('sha256')
    .update(canonicalize(value) ?? '')
    .digest('hex');

/** The fields an event's hash covers directly, and those it covers through the personal hash. */
type Chained = Pick<EventRow, 'seq' | 'id' | 'timestamp' | 'action' | 'resource' | 'service'>;
type Personal = Pick<EventRow, 'actor' | 'metadata' | 'details'>;

export const personalHash = ({ actor, metadata, details }: Personal) =>
  sha256({ actor, metadata, details });

export const eventHash = (event: Chained, personal: string, prevHash: string) =>
  sha256({
    v: CHAIN_VERSION,
    seq: event.seq,
    id: event.id,
    timestamp: event.timestamp.toISOString(),
    action: event.action,
    resource: event.resource,
    service: event.service,
    personalHash: personal,
    prevHash,
  });
