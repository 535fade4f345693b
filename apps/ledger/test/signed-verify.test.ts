import { eventually, serviceUnderTest } from '@platform/testing';
import { eventHash } from '../src/domain/chain';
import { ledger } from '../src/index';
import { signHead } from '../src/domain/signing';
import { verifyChain } from '../src/domain/verify';
import { daysAgo, type Ledger } from './helpers';
import { newKey, rewriteFrom, signingLedger } from './signing-helpers';

let svc: Ledger;
let ids: string[];
const key = newKey();
afterEach(() => svc.close());

const verify = async () => (await svc.get('/events/verify')).body.data;
const sign = async () => (await svc.post('/events/heads')).body.data;
const record = async (action: string, timestamp?: string) => {
  const res = await svc.post('/events', { action, actor: 'ann', metadata: { k: 1 }, timestamp });
  expect(res.status).toBe(201);
  ids.push(res.body.data.id);
  return res.body.data;
};

describe('verify with signed heads', () => {
  beforeEach(async () => {
    svc = await signingLedger(key);
    ids = [];
  });

  it('detects a chain rewritten with every hash recomputed, which the hashes alone accept', async () => {
    for (let i = 1; i <= 3; i++) await record(`step.${i}`);
    const early = await sign();
    for (let i = 4; i <= 6; i++) await record(`step.${i}`);
    const late = await sign();
    expect(await verify()).toMatchObject({
      valid: true,
      signatures: { checked: 2, latestSignedSeq: 6, unsignedEvents: 0 },
    });

    await rewriteFrom(svc.tables(), 5, { actor: 'mallory', action: 'step.forged' });
    expect((await svc.get(`/events/${ids[4]}`)).body.data).toMatchObject({
      actor: 'mallory',
      action: 'step.forged',
    });
    // What verify did before signed heads: every hash and link checks out.
    expect(await verifyChain(svc.tables())).toMatchObject({ valid: true, checked: 6 });
    const unsigned = await serviceUnderTest(ledger, { db: svc.db });
    try {
      const res = await unsigned.app.inject({ url: '/api/v1/ledger/events/verify' });
      expect(res.json().data).toMatchObject({ valid: true, signatures: { keyId: null } });
    } finally {
      await unsigned.app.close();
    }

    const result = await verify();
    expect(result).toMatchObject({
      valid: false,
      checked: 6,
      firstInvalidId: ids[5],
      signatures: { checked: 1, latestSignedSeq: 3 },
    });
    expect(result.reason).toBe(
      `The chain no longer matches the head signed at ${late.signedAt} (event number 6): the chain has hash ${result.head.hash.slice(0, 12)}… there, the signed head ${late.hash.slice(0, 12)}…; the chain was rewritten after event number 3 (the last signed head it still matches)`,
    );
    expect(early.seq).toBe(3);
    // And the service does not vouch for the rewritten chain.
    const refused = await svc.post('/events/heads');
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      `The chain no longer passes through the head signed at ${late.signedAt} (event number 6): it was rewritten or cut back, so it is not signed again; see GET /events/verify`,
    );
  });

  it('detects a rewrite of the whole chain, from its first event', async () => {
    for (let i = 1; i <= 3; i++) await record(`step.${i}`);
    await sign();
    await rewriteFrom(svc.tables(), 1, { resource: 'elsewhere' });
    expect(await verify()).toMatchObject({
      valid: false,
      firstInvalidId: ids[2],
      reason: expect.stringMatching(/the chain was rewritten at or before it$/),
    });
  });

  it('reports a signed head row that was altered or forged', async () => {
    for (let i = 1; i <= 4; i++) await record(`step.${i}`);
    const signed = await sign();
    await record('step.5');
    await sign();
    // Someone who rewrites the chain and then edits the signed hash to match: the signature fails.
    await rewriteFrom(svc.tables(), 2, { action: 'step.forged' });
    const newHash = (await svc.get(`/events/${ids[3]}`)).body.data.hash;
    const rows = svc.tables().updateTable('signed_heads');
    await rows.set({ hash: newHash }).where('seq', '=', 4).execute();
    const result = await verify();
    expect(result).toMatchObject({ valid: false, firstInvalidId: ids[3], checked: 4 });
    expect(result.reason).toBe(
      `The signature of the head signed at ${signed.signedAt} (event number 4) does not verify with key ${key.key.keyId.slice(0, 12)}…: the signed head row was altered or forged`,
    );

    // A signature copied from another head does not verify either.
    await rewriteFrom(svc.tables(), 2, { action: 'step.2' });
    expect(await verify()).toMatchObject({ valid: false, firstInvalidId: ids[3] });
    await rows.set({ hash: signed.hash }).where('seq', '=', 4).execute();
    expect(await verify()).toMatchObject({ valid: true });
    // A signature copied from another head does not verify either; nothing is signed after it.
    const copied = await svc
      .tables()
      .selectFrom('signed_heads')
      .select('signature')
      .where('seq', '=', 4)
      .executeTakeFirstOrThrow();
    await rows.set({ signature: copied.signature }).where('seq', '=', 5).execute();
    expect(await verify()).toMatchObject({
      valid: false,
      firstInvalidId: ids[4],
      reason: expect.stringContaining('(event number 5) does not verify'),
    });
    const refused = await svc.post('/events/heads');
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(
      /^The signature of the head signed at .* \(event number 5\) does not verify: the row was altered or forged/,
    );
  });

  it('reports a chain cut back below a signed head', async () => {
    for (let i = 1; i <= 5; i++) await record(`step.${i}`);
    const signed = await sign();
    const t = svc.tables();
    await t.deleteFrom('events').where('seq', '>', 3).execute();
    const third = (await svc.get(`/events/${ids[2]}`)).body.data;
    await t
      .updateTable('chain_head')
      .set({ seq: 3, hash: third.hash })
      .where('id', '=', 1)
      .execute();
    expect(await verifyChain(t)).toMatchObject({ valid: true });
    expect(await verify()).toMatchObject({
      valid: false,
      checked: 3,
      firstInvalidId: null,
      reason: `The head signed at ${signed.signedAt} is event number 5, beyond the chain's head (event number 3): the chain was cut back`,
    });
    expect((await svc.post('/events/heads')).status).toBe(409);
  });

  it('counts heads of another key, and checks them with that key', async () => {
    await record('a');
    await sign();
    const other = newKey();
    const second = await signingLedger(other, '0', svc.db);
    try {
      await second.post('/events', { action: 'b' });
      expect((await second.post('/events/heads')).status).toBe(201);
      expect((await second.get('/events/verify')).body.data.signatures).toMatchObject({
        keyId: other.key.keyId,
        checked: 1,
        otherKeys: 1,
        latestSignedSeq: 2,
        note: '1 signed heads were made by another key and cannot be checked with this one.',
      });
    } finally {
      await second.app.close();
    }
    expect(await verify()).toMatchObject({
      valid: true,
      signatures: {
        keyId: key.key.keyId,
        checked: 1,
        otherKeys: 1,
        latestSignedSeq: 1,
        unsignedEvents: 1,
      },
    });
  });

  it('checks heads whose events retention removed, through the checkpoints', async () => {
    await record('old.1', daysAgo(10));
    await record('old.2', daysAgo(10));
    await sign(); // seq 2: inside the gap retention leaves
    await record('old.3', daysAgo(10));
    await sign(); // seq 3: the last event of the gap, whose hash its checkpoint keeps
    await record('new.4');
    await sign(); // seq 4: kept
    await record('old.5', daysAgo(10));
    await sign(); // seq 5: the head, removed at the end of the chain
    const policy = await svc.post('/policies', { name: 'old', retentionDays: 5 });
    const applied = await svc.post(`/policies/${policy.body.data.id}/apply`);
    expect(applied.body.data.deleted).toBe(4);
    expect(await verify()).toMatchObject({
      valid: true,
      checkpoints: 2,
      signatures: { checked: 3, inGaps: 1, latestSignedSeq: 5, unsignedEvents: 0 },
    });
    // Event 4 made to follow another hash, its own hash and both checkpoints forged to fit: the
    // hashes alone accept it; the head signed at seq 3 (kept by the checkpoint) does not.
    const t = svc.tables();
    const row = await t
      .selectFrom('events')
      .selectAll()
      .where('seq', '=', 4)
      .executeTakeFirstOrThrow();
    const prev = 'f'.repeat(64);
    const hash = eventHash(row, row.personal_hash, prev);
    await t.updateTable('events').set({ prev_hash: prev, hash }).where('seq', '=', 4).execute();
    await t.updateTable('checkpoints').set({ prev_hash: prev }).where('next_seq', '=', 4).execute();
    await t
      .updateTable('checkpoints')
      .set({ after_hash: hash })
      .where('next_seq', '=', 6)
      .execute();
    expect(await verifyChain(t)).toMatchObject({ valid: true, checkpoints: 2 });
    expect(await verify()).toMatchObject({
      valid: false,
      firstInvalidId: ids[3],
      reason: expect.stringMatching(
        /^The chain no longer matches the head signed at \S+ \(event number 3\)/,
      ),
    });
  });

  it('notes when the latest signed head is older than signing every interval explains', async () => {
    await svc.close();
    svc = await signingLedger(key, '60000');
    await eventually(async () => (await svc.get('/events/heads')).body.data.length === 1, {
      timeout: 20_000,
    });
    await record('a');
    await record('b');
    const then = new Date(Date.now() - 10 * 60_000);
    await signHead(svc.tables(), key.key, then);
    await record('c');
    expect(await verify()).toMatchObject({
      valid: true,
      signatures: {
        latestSignedSeq: 2,
        unsignedEvents: 1,
        note: `The latest signed head (event number 2, signed at ${then.toISOString()}) is older than expected: 1 events came after it, and signing runs every 60000 ms; signed heads may have been deleted.`,
      },
    });
    await svc.tables().deleteFrom('signed_heads').execute();
    expect((await verify()).signatures.note).toBe(
      'No signed head covers the chain: 3 events are unsigned, though signing runs every 60000 ms; signed heads may have been deleted.',
    );
  });
});
