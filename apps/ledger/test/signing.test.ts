import { createHash, createPublicKey, verify } from 'node:crypto';
import { inspect } from 'node:util';
import canonicalize from 'canonicalize';
import { eventually, sleep } from '@platform/testing';
import { ledger } from '../src/index';
import { ledgerUnderTest, type Ledger } from './helpers';
import { dumpTables, newKey, signingLedger } from './signing-helpers';

let svc: Ledger;
afterEach(() => svc.close());

const key = newKey();
const record = (action: string) => svc.post('/events', { action, actor: 'ann' });
const heads = async (query = '') => (await svc.get(`/events/heads${query}`)).body.data;

describe('signed chain heads', () => {
  it('signs the head on request, once per position of the head', async () => {
    svc = await signingLedger(key);
    await record('a');
    await record('b');
    const head = (await svc.get('/events/verify')).body.data.head;

    const first = await svc.post('/events/heads');
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      seq: 2,
      hash: head.hash,
      signedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      keyId: key.key.keyId,
      algorithm: 'Ed25519',
      signature: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/),
      statement: expect.any(String),
    });
    // The head has not moved: the same signed head, no new row.
    const again = await svc.post('/events/heads');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);

    await record('c');
    expect((await svc.post('/events/heads')).body.data.seq).toBe(3);
    expect((await heads()).map((h: { seq: number }) => h.seq)).toEqual([3, 2]);
  });

  it('lets an external verifier check a signed head with nothing but the public key', async () => {
    svc = await signingLedger(key);
    await record('a');
    const signed = (await svc.post('/events/heads')).body.data;
    const published = await svc.get('/events/signing-key');
    expect(published.status).toBe(200);
    expect(published.body.data).toEqual({
      algorithm: 'Ed25519',
      keyId: key.key.keyId,
      publicKey: expect.stringMatching(
        /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/,
      ),
    });

    const publicKey = createPublicKey(published.body.data.publicKey);
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
    expect(createHash('sha256').update(raw).digest('hex')).toBe(signed.keyId);
    const { seq, hash, signedAt, keyId } = signed;
    const statement = canonicalize({ v: 1, seq, hash, signedAt, keyId }) as string;
    expect(signed.statement).toBe(statement);
    const check = (text: string) =>
      verify(null, Buffer.from(text), publicKey, Buffer.from(signed.signature, 'base64'));
    expect(check(statement)).toBe(true);
    expect(check(statement.replace(`"seq":${seq}`, `"seq":${seq + 1}`))).toBe(false);
    // The signed hash is the event's: the head an external verifier kept pins the chain.
    const event = (await svc.get('/events')).body.data[0];
    expect(event).toMatchObject({ seq, hash });
  });

  it('lists signed heads newest first, paged with limit and offset', async () => {
    svc = await signingLedger(key);
    for (let i = 1; i <= 5; i++) {
      await record(`e${i}`);
      expect((await svc.post('/events/heads')).status).toBe(201);
    }
    const seqs = (list: Array<{ seq: number }>) => list.map((h) => h.seq);
    expect(seqs(await heads())).toEqual([5, 4, 3, 2, 1]);
    expect(seqs(await heads('?limit=2'))).toEqual([5, 4]);
    expect(seqs(await heads('?limit=2&offset=3'))).toEqual([2, 1]);
    const bad = await svc.get('/events/heads?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.success).toBe(false);
  });

  it('signs periodically when the head moved, and only then', async () => {
    svc = await signingLedger(key, '40');
    // The first run, at start-up, signs the empty chain.
    await eventually(async () => (await heads()).length === 1, { timeout: 20_000 });
    expect((await heads())[0]).toMatchObject({ seq: 0, hash: '0'.repeat(64) });
    await record('a');
    await record('b');
    await eventually(async () => (await heads())[0].seq === 2, { timeout: 20_000 });
    // A run may have come between the two events (seq 1); none comes while the head stays.
    const seqs = async () => (await heads()).map((h: { seq: number }) => h.seq);
    const signed = await seqs();
    expect([
      [2, 0],
      [2, 1, 0],
    ]).toContainEqual(signed);
    await sleep(200);
    expect(await seqs()).toEqual(signed);
    expect((await svc.get('/events/verify')).body.data).toMatchObject({
      valid: true,
      signatures: {
        keyId: key.key.keyId,
        checked: signed.length,
        latestSignedSeq: 2,
        unsignedEvents: 0,
        note: null,
      },
    });
  });

  it('never lets the private key out: responses, the database and the config object', async () => {
    svc = await signingLedger(key);
    const answers: unknown[] = [];
    for (const action of ['a', 'b']) answers.push((await record(action)).body);
    answers.push((await svc.post('/events/heads')).body);
    answers.push((await svc.get('/events/heads')).body);
    answers.push((await svc.get('/events/signing-key')).body);
    answers.push((await svc.get('/events/verify')).body);
    const seen = JSON.stringify(answers) + (await dumpTables(svc.tables()));
    expect(seen).toContain(key.key.keyId);
    for (const secret of key.secrets) expect(seen).not.toContain(secret);

    const config = ledger.config({ LEDGER_SIGNING_KEY: key.seedBase64 });
    const printed = JSON.stringify(config) + inspect(config, { depth: 10, showHidden: true });
    expect(printed).toContain(key.key.keyId);
    for (const secret of key.secrets) expect(printed).not.toContain(secret);
  });
});

describe('without a signing key', () => {
  beforeEach(async () => {
    svc = await ledgerUnderTest({ env: { LEDGER_RETENTION_INTERVAL_MS: '0' } });
    await record('a');
  });

  it('does not sign, says why, and has no public key', async () => {
    const sign = await svc.post('/events/heads');
    expect(sign.status).toBe(409);
    expect(sign.body).toEqual({
      success: false,
      error: {
        code: 'NOT_CONFIGURED',
        message: 'Signing is off: LEDGER_SIGNING_KEY is not set on the audit service',
      },
    });
    const published = await svc.get('/events/signing-key');
    expect(published.status).toBe(404);
    expect(published.body.error).toEqual({
      code: 'NOT_FOUND',
      message:
        'Signing key not found: LEDGER_SIGNING_KEY is not set, so chain heads are not signed',
    });
    expect(await heads()).toEqual([]);
  });

  it('verifies the chain by its hashes and says that signatures are not checked', async () => {
    expect((await svc.get('/events/verify')).body.data).toMatchObject({
      valid: true,
      checked: 1,
      signatures: {
        keyId: null,
        checked: 0,
        otherKeys: 0,
        latestSignedSeq: null,
        unsignedEvents: 1,
        note: 'Signing is off (LEDGER_SIGNING_KEY is not set): the chain is checked by its hashes only.',
      },
    });
  });
});
