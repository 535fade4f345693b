import { sign, verify } from 'node:crypto';
import canonicalize from 'canonicalize';
import { conflict } from '@platform/core';
import { GENESIS_HASH } from './chain.js';
import type { ChainHead, LedgerDb, SignedHeadRow } from '../database.js';
import { withChainHeadLocked } from '../repositories/events.js';
import { insertSignedHead, latestSignedHead, storedHashAt } from '../repositories/signed-heads.js';
import type { SigningKey } from './signing-key.js';

/**
 * Signed chain heads (README "Signed chain heads"), after CloudTrail's signed digest files: the
 * ledger signs its head with a key kept outside the database, so that a chain rewritten by
 * someone with database access (every hash recomputed) no longer matches a signed head.
 *
 *   statement = JCS({ v, seq, hash, signedAt, keyId })
 *   signature = base64(Ed25519(statement))
 */
export const SIGNED_HEAD_VERSION = 1;

type Signed = Pick<SignedHeadRow, 'seq' | 'hash' | 'signed_at' | 'key_id'>;

/** The exact text that is signed: an external verifier rebuilds it from the head's fields. */
export const headStatement = (head: Signed): string =>
  canonicalize({
    v: SIGNED_HEAD_VERSION,
    seq: head.seq,
    hash: head.hash,
    signedAt: head.signed_at.toISOString(),
    keyId: head.key_id,
  }) ?? '';

/** Whether `row` carries a valid signature of its statement by `key` (false for another key). */
export function signatureValid(key: SigningKey, row: SignedHeadRow): boolean {
  if (row.key_id !== key.keyId) return false;
  try {
    const signature = Buffer.from(row.signature, 'base64');
    return verify(null, Buffer.from(headStatement(row)), key.publicKey, signature);
  } catch {
    return false;
  }
}

/** The hash the chain has at `seq`, as far as what is stored still tells (undefined: unknown). */
async function chainHashAt(trx: LedgerDb, head: ChainHead, seq: number) {
  if (seq === 0) return GENESIS_HASH;
  if (seq === head.seq) return head.hash;
  if (seq > head.seq) return null;
  return storedHashAt(trx, seq);
}

export interface SignResult {
  head: SignedHeadRow;
  /** false when the head had not moved since `key` last signed it: that signed head is answered. */
  created: boolean;
}

/**
 * Signs the chain head with `key`, unless the head has not moved since the key last signed it.
 * Runs while the head is locked (as appends do), so it signs a head that is there, and two
 * instances never sign the same one twice. Refuses (409) to sign a chain that no longer passes
 * through the key's last signed head, or whose last signed head does not verify: the service never
 * vouches for a rewritten chain.
 */
export function signHead(db: LedgerDb, key: SigningKey, now = new Date()): Promise<SignResult> {
  return withChainHeadLocked(db, async (trx, head) => {
    const last = await latestSignedHead(trx, key.keyId);
    if (last) {
      const at = `the head signed at ${last.signed_at.toISOString()} (event number ${last.seq})`;
      if (!signatureValid(key, last))
        throw conflict(
          `The signature of ${at} does not verify: the row was altered or forged, so nothing is signed until it is looked into; see GET /events/verify`,
        );
      if (last.seq === head.seq && last.hash === head.hash) return { head: last, created: false };
      const hash = await chainHashAt(trx, head, last.seq);
      if (hash !== undefined && hash !== last.hash)
        throw conflict(
          `The chain no longer passes through ${at}: it was rewritten or cut back, so it is not signed again; see GET /events/verify`,
        );
    }
    const signed = { seq: head.seq, hash: head.hash, signed_at: now, key_id: key.keyId };
    const signature = key
      .withPrivateKey((privateKey) => sign(null, Buffer.from(headStatement(signed)), privateKey))
      .toString('base64');
    const row = { ...signed, signature };
    await insertSignedHead(trx, row);
    return { head: row, created: true };
  });
}
