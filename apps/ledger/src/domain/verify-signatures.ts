import { GENESIS_HASH } from './chain.js';
import type { ChainHead, EventRow, LedgerDb, SignedHeadRow } from '../database.js';
import { signedHeadsIn } from '../repositories/signed-heads.js';
import type { SignaturesCheck } from '../schemas/signatures.js';
import type { SigningKey } from './signing-key.js';
import { signatureValid } from './signing.js';

export interface SigningSettings {
  /** Undefined when LEDGER_SIGNING_KEY is unset: signed heads are counted, not checked. */
  key?: SigningKey;
  /** LEDGER_SIGNING_INTERVAL_MS: how recent the latest signed head is expected to be (0: on request only). */
  intervalMs: number;
}

/** A signed head may be late by two intervals and a minute before verify remarks on it. */
const GRACE_MS = 60_000;

const short = (hash: string) => `${hash.slice(0, 12)}…`;

/**
 * Checks the signed heads as verify's walk of the chain passes their event numbers: each head
 * signed by the configured key must carry a valid signature, and the chain must still have the
 * signed hash at that number (the event's own hash; for an event retention removed, the
 * `prev_hash` of the event after it, which a checkpoint vouched for). Heads are loaded page by page
 * in step with the walk, each once. Methods answer a sentence when something does not verify.
 */
export class SignedHeadCheck {
  private queue: SignedHeadRow[] = [];
  private loadedUpTo = -1;
  private checked = 0;
  private otherKeys = 0;
  private inGaps = 0;
  private latest: SignedHeadRow | undefined;

  constructor(
    private readonly settings: SigningSettings,
    private readonly head: ChainHead,
  ) {}

  /** Loads the signed heads up to event number `upTo` (those before it are loaded already). */
  async load(trx: LedgerDb, upTo: number): Promise<void> {
    if (upTo <= this.loadedUpTo) return;
    this.queue.push(...(await signedHeadsIn(trx, { after: this.loadedUpTo, upTo })));
    this.loadedUpTo = upTo;
  }

  /** Checks the heads signed up to `row`, an event the walk found valid and linked. */
  atEvent(row: EventRow): string | undefined {
    return this.consume(row.seq, (seq) =>
      seq === row.seq ? row.hash : seq === row.seq - 1 ? row.prev_hash : undefined,
    );
  }

  /** Checks the heads left after the last event: at the head, in a gap at the end, or beyond. */
  atEnd(): string | undefined {
    const { seq, hash } = this.head;
    return this.consume(Infinity, (at) => (at === seq ? hash : at > seq ? null : undefined));
  }

  /**
   * Checks and drops the queued heads up to `upTo`. `hashAt` is the chain's hash at a head's event
   * number: undefined when retention removed it with its hash, null when it is beyond the head.
   */
  private consume(upTo: number, hashAt: (seq: number) => string | null | undefined) {
    while (this.queue.length > 0 && this.queue[0].seq <= upTo) {
      const signed = this.queue.shift() as SignedHeadRow;
      const problem = this.check(signed, signed.seq === 0 ? GENESIS_HASH : hashAt(signed.seq));
      if (problem) return problem;
    }
    return undefined;
  }

  private check(signed: SignedHeadRow, actual: string | null | undefined): string | undefined {
    const { key } = this.settings;
    if (!key || signed.key_id !== key.keyId) {
      this.otherKeys += 1;
      return undefined;
    }
    const at = `the head signed at ${signed.signed_at.toISOString()} (event number ${signed.seq})`;
    if (!signatureValid(key, signed))
      return `The signature of ${at} does not verify with key ${short(key.keyId)}: the signed head row was altered or forged`;
    if (actual === null)
      return `The head signed at ${signed.signed_at.toISOString()} is event number ${signed.seq}, beyond the chain's head (event number ${this.head.seq}): the chain was cut back`;
    if (actual !== undefined && actual !== signed.hash) {
      const since = this.latest
        ? `after event number ${this.latest.seq} (the last signed head it still matches)`
        : 'at or before it';
      return `The chain no longer matches ${at}: the chain has hash ${short(actual)} there, the signed head ${short(signed.hash)}; the chain was rewritten ${since}`;
    }
    if (actual === undefined) this.inGaps += 1;
    else this.checked += 1;
    this.latest = signed;
    return undefined;
  }

  /** The `signatures` part of the verify result, with a note when something deserves a look. */
  summary(now = Date.now()): SignaturesCheck {
    const { key, intervalMs } = this.settings;
    const latest = this.latest;
    const unsignedEvents = this.head.seq - (latest?.seq ?? 0);
    const notes: string[] = [];
    if (!key)
      notes.push(
        `Signing is off (LEDGER_SIGNING_KEY is not set): the chain is checked by its hashes only${this.otherKeys > 0 ? `, and ${this.otherKeys} signed heads were not checked` : ''}.`,
      );
    else if (this.otherKeys > 0)
      notes.push(
        `${this.otherKeys} signed heads were made by another key and cannot be checked with this one.`,
      );
    const late =
      latest === undefined || now - latest.signed_at.getTime() > 2 * intervalMs + GRACE_MS;
    if (key && intervalMs > 0 && unsignedEvents > 0 && late)
      notes.push(
        latest
          ? `The latest signed head (event number ${latest.seq}, signed at ${latest.signed_at.toISOString()}) is older than expected: ${unsignedEvents} events came after it, and signing runs every ${intervalMs} ms; signed heads may have been deleted.`
          : `No signed head covers the chain: ${unsignedEvents} events are unsigned, though signing runs every ${intervalMs} ms; signed heads may have been deleted.`,
      );
    return {
      keyId: key?.keyId ?? null,
      checked: this.checked,
      otherKeys: this.otherKeys,
      inGaps: this.inGaps,
      latestSignedSeq: latest?.seq ?? null,
      latestSignedAt: latest?.signed_at.toISOString() ?? null,
      unsignedEvents,
      note: notes.length > 0 ? notes.join(' ') : null,
    };
  }
}
