import { sql } from '@platform/db';
import { serviceUnderTest, useService } from '@platform/testing';
import { eventHash, personalHash } from '../src/domain/chain';
import { ledger } from '../src/index';
import { ledgerUnderTest } from './helpers';

const svc = useService(ledgerUnderTest);
let ids: string[];
beforeEach(async () => {
  ids = [];
  for (let i = 1; i <= 6; i++)
    ids.push(
      (
        await svc.post('/events', {
          action: `step.${i}`,
          actor: 'ann',
          metadata: { n: i, nested: { b: [1, 2.5, 'x'], a: null } },
        })
      ).body.data.id,
    );
});

const verify = async () => (await svc.get('/events/verify')).body.data;

describe('the hash chain', () => {
  it('verifies a chain nobody touched', async () => {
    const head = (await svc.get(`/events/${ids[5]}`)).body.data;
    expect(await verify()).toEqual({
      valid: true,
      checked: 6,
      firstInvalidId: null,
      reason: null,
      checkpoints: 0,
      head: { seq: 6, hash: head.hash },
      signatures: {
        keyId: null,
        checked: 0,
        otherKeys: 0,
        inGaps: 0,
        latestSignedSeq: null,
        latestSignedAt: null,
        unsignedEvents: 6,
        note: 'Signing is off (LEDGER_SIGNING_KEY is not set): the chain is checked by its hashes only.',
      },
    });
  });

  it('hashes canonical JSON: key order does not matter, content does', () => {
    const a = { actor: 'ann', metadata: { x: 1, y: { p: 1, q: 2 } }, details: {} };
    const b = { details: {}, metadata: { y: { q: 2, p: 1 }, x: 1 }, actor: 'ann' };
    expect(personalHash(a)).toBe(personalHash(b));
    expect(personalHash({ ...a, actor: 'bob' })).not.toBe(personalHash(a));
    const event = {
      seq: 1,
      id: 'abc',
      timestamp: new Date(0),
      action: 'x',
      resource: null,
      service: null,
    };
    expect(eventHash(event, 'p', 'q')).not.toBe(eventHash({ ...event, action: 'y' }, 'p', 'q'));
    expect(eventHash(event, 'p', 'q')).not.toBe(eventHash(event, 'p', 'r'));
  });

  it.each([
    ['action', { action: 'step.forged' }],
    ['resource', { resource: 'elsewhere' }],
    ['service', { service: 'forged' }],
    ['timestamp', { timestamp: new Date('2020-01-01T00:00:00Z') }],
    ['actor', { actor: 'mallory' }],
    ['metadata', { metadata: sql`'{"n": 99}'::jsonb` }],
    ['details', { details: sql`'{"added": true}'::jsonb` }],
  ])('reports the exact event whose %s was edited in the database', async (_field, change) => {
    await svc
      .tables()
      .updateTable('events')
      .set(change as never)
      .where('id', '=', ids[3])
      .execute();
    expect(await verify()).toMatchObject({
      valid: false,
      checked: 4,
      firstInvalidId: ids[3],
      reason: expect.stringContaining(`Event ${ids[3]} does not verify`),
    });
  });

  it('reports an event whose hash was recomputed by the editor: the next one no longer follows it', async () => {
    const row = await svc
      .tables()
      .selectFrom('events')
      .selectAll()
      .where('id', '=', ids[2])
      .executeTakeFirstOrThrow();
    const forged = { ...row, action: 'step.forged' };
    await svc
      .tables()
      .updateTable('events')
      .set({ action: forged.action, hash: eventHash(forged, row.personal_hash, row.prev_hash) })
      .where('id', '=', ids[2])
      .execute();
    expect(await verify()).toMatchObject({ valid: false, firstInvalidId: ids[3], checked: 4 });
  });

  it('reports the event after one deleted in the database', async () => {
    await svc.tables().deleteFrom('events').where('id', '=', ids[2]).execute();
    expect(await verify()).toMatchObject({
      valid: false,
      firstInvalidId: ids[3],
      reason: `Event ${ids[3]} does not follow event ${ids[1]}: events between them were removed or changed`,
    });
  });

  it('reports the first events deleted in the database', async () => {
    await svc.tables().deleteFrom('events').where('id', '=', ids[0]).execute();
    expect(await verify()).toMatchObject({ valid: false, firstInvalidId: ids[1], checked: 1 });
  });

  it('reports the last events deleted in the database, though no event is left to name', async () => {
    await svc.tables().deleteFrom('events').where('id', 'in', [ids[4], ids[5]]).execute();
    expect(await verify()).toEqual(
      expect.objectContaining({
        valid: false,
        checked: 4,
        firstInvalidId: null,
        reason: `The chain ends at event ${ids[3]} but its head is event number 6: the last events were removed`,
      }),
    );
  });

  it('reports events whose order was swapped', async () => {
    const t = svc.tables();
    await t.updateTable('events').set({ seq: 100 }).where('id', '=', ids[1]).execute();
    await t.updateTable('events').set({ seq: 2 }).where('id', '=', ids[2]).execute();
    await t.updateTable('events').set({ seq: 3 }).where('id', '=', ids[1]).execute();
    expect(await verify()).toMatchObject({ valid: false, firstInvalidId: ids[2] });
  });

  it('reports a checkpoint forged to hide a deletion when it does not match the chain', async () => {
    const t = svc.tables();
    const deleted = await t
      .selectFrom('events')
      .selectAll()
      .where('id', '=', ids[2])
      .executeTakeFirstOrThrow();
    await t.deleteFrom('events').where('id', '=', ids[2]).execute();
    // A checkpoint that claims the gap starts at the genesis, not at the kept event before it.
    await t
      .insertInto('checkpoints')
      .values({
        next_seq: 4,
        after_hash: '0'.repeat(64),
        prev_hash: deleted.hash,
        policy: 'forged',
      })
      .execute();
    expect(await verify()).toMatchObject({ valid: false, firstInvalidId: ids[3] });
  });

  it('keeps one chain when two service instances append to the same database', async () => {
    const other = await serviceUnderTest(ledger, { db: svc.db });
    try {
      const posts = Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? svc.app : other.app).inject({
          method: 'POST',
          url: '/api/v1/ledger/events',
          payload: { action: `parallel.${i}` },
        }),
      );
      expect((await Promise.all(posts)).map((r) => r.statusCode)).toEqual(Array(60).fill(201));
    } finally {
      await other.app.close();
    }
    expect(await verify()).toMatchObject({ valid: true, checked: 66 });
  });
});
