import { IsoTimestamp, Nullable, PagedQuery, Type, type Static } from '@platform/core';
import type { SignedHeadRow } from '../database.js';
import { headStatement } from '../domain/signing.js';

const KeyId = Type.String({
  description: 'SHA-256 (hex) of the raw 32-byte Ed25519 public key that signed it',
});

export const SignedHeadSchema = Type.Object({
  seq: Type.Integer({ description: 'The event number the chain head was at' }),
  hash: Type.String({ description: 'The hash of that event (the chain head)' }),
  signedAt: IsoTimestamp,
  keyId: KeyId,
  algorithm: Type.Literal('Ed25519'),
  signature: Type.String({ description: 'Ed25519 signature of `statement`, base64' }),
  statement: Type.String({
    description:
      'The exact text signed: JCS({ v: 1, seq, hash, signedAt, keyId }), rebuildable from the fields above',
  }),
});
export type SignedHead = Static<typeof SignedHeadSchema>;

export const toSignedHead = (row: SignedHeadRow): SignedHead => ({
  seq: row.seq,
  hash: row.hash,
  signedAt: row.signed_at.toISOString(),
  keyId: row.key_id,
  algorithm: 'Ed25519',
  signature: row.signature,
  statement: headStatement(row),
});

export const SignedHeadListQuery = PagedQuery({});

export const SigningKeySchema = Type.Object({
  algorithm: Type.Literal('Ed25519'),
  keyId: KeyId,
  publicKey: Type.String({ description: 'The public key, PEM (SubjectPublicKeyInfo)' }),
});

export const SignaturesCheckSchema = Type.Object(
  {
    keyId: Nullable(Type.String(), {
      description: 'The key signed heads are checked with; null when LEDGER_SIGNING_KEY is unset',
    }),
    checked: Type.Integer({
      description: 'Signed heads of this key whose signature verified and whose hash the chain has',
    }),
    otherKeys: Type.Integer({
      description:
        'Signed heads made by another key (all of them when no key is configured): not verifiable here',
    }),
    inGaps: Type.Integer({
      description:
        'Signed heads of this key, signature verified, whose event retention removed with its hash (inside a gap)',
    }),
    latestSignedSeq: Nullable(Type.Integer(), {
      description: 'Event number of the latest head signed by this key that verified',
    }),
    latestSignedAt: Nullable(IsoTimestamp),
    unsignedEvents: Type.Integer({
      description: 'Events after the latest signed head: a rewrite of these is not detectable yet',
    }),
    note: Nullable(Type.String(), {
      description:
        'Signing is off, heads of another key, or the latest signed head is older than the signing interval leads to expect',
    }),
  },
  { description: 'The check of the signed chain heads (README "Signed chain heads")' },
);
export type SignaturesCheck = Static<typeof SignaturesCheckSchema>;
