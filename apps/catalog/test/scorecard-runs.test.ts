import {
  AUTH_ENV,
  CALLERS,
  eventually,
  jsonApiAs,
  serviceUnderTest,
  useService,
  type Json,
} from '@platform/testing';
import { sql } from '@platform/db';
import type { CatalogDatabase } from '../src/database';
import { catalog } from '../src/index';
import { storeResults, type NewResult } from '../src/repositories/scorecard-runs';
import { insertScorecard, updateScorecard } from '../src/repositories/scorecards';

// How scorecard evaluations write their results (on a catalog without a job worker, so that
// nothing else writes them), and the periodic run (a catalog of its own, every 300 ms).

const svc = useService(() => serviceUnderTest(catalog, { jobs: false }), { scope: 'all' });
const catalogDb = () => svc.db.schema<CatalogDatabase>('catalog');

describe('writing results', () => {
  it('writes any number, skips what is gone or changed meanwhile, never an older one', async () => {
    const db = catalogDb();
    // 4,100 services on two scorecards: 8,200 results, more than one statement's 65,535
    // parameters could carry at 8 a row.
    await sql`insert into catalog.services (id, name)
      select 'bulk-' || i, 'bulk-' || i from generate_series(1, 4100) i`.execute(db);
    for (const id of ['c1', 'c2'])
      await insertScorecard(db, {
        id,
        name: id,
        description: null,
        rules: [{ id: 'owner', kind: 'hasOwner' }],
        levels: [{ name: 'one', rules: ['owner'] }],
        created_by: null,
      });
    const at = new Date('2026-01-02T00:00:00.000Z');
    const later = new Date('2026-01-02T00:00:01.000Z');
    const row = (scorecard_id: string, service_id: string, more: Partial<NewResult> = {}) => ({
      scorecard_id,
      service_id,
      version: 1,
      level: null,
      rank: -1,
      passed: 0,
      total: 1,
      rules: [],
      evaluated_at: at,
      ...more,
    });
    const ids = Array.from({ length: 4100 }, (_, i) => `bulk-${i + 1}`);
    const all = ['c1', 'c2'].flatMap((card) => ids.map((id) => row(card, id)));
    expect(await storeResults(db, all)).toBe(8200);

    // A service and a scorecard removed while they were evaluated: skipped, the rest written.
    await db.deleteFrom('services').where('id', '=', 'bulk-2').execute();
    await db.deleteFrom('scorecards').where('id', '=', 'c2').execute();
    const gone = [row('c1', 'bulk-2'), row('c2', 'bulk-3'), row('c1', 'bulk-1', { level: 'one' })];
    expect(
      await storeResults(
        db,
        gone.map((r) => ({ ...r, evaluated_at: later })),
      ),
    ).toBe(1);

    // The scorecard changed: what was evaluated on its old version is not written; on the new
    // one it is, unless read earlier than what is stored.
    await updateScorecard(db, 'c1', { description: 'v2' });
    expect(await storeResults(db, [row('c1', 'bulk-3', { evaluated_at: later })])).toBe(0);
    expect(await storeResults(db, [row('c1', 'bulk-1', { version: 2, rank: 0 })])).toBe(1);
    expect(await storeResults(db, [row('c1', 'bulk-1', { version: 2, rank: 5 })])).toBe(1);
    expect(
      await storeResults(db, [
        row('c1', 'bulk-1', { version: 2, rank: 9, evaluated_at: new Date(0) }),
      ]),
    ).toBe(0);
    const stored = await db
      .selectFrom('scorecard_results')
      .select(['rank', 'version'])
      .where('service_id', '=', 'bulk-1')
      .execute();
    expect(stored).toEqual([{ rank: 5, version: 2 }]);
  });
});

describe('the periodic run', () => {
  const periodic = useService(
    () =>
      serviceUnderTest(catalog, {
        env: { ...AUTH_ENV, CATALOG_SCORECARD_INTERVAL_MS: '300' },
        jobs: { pollMs: 50 },
      }),
    { scope: 'all' },
  );

  it('evaluates every service again with nothing changed', async () => {
    const admin = jsonApiAs(periodic.app, catalog.prefix, CALLERS.admin);
    expect((await admin.post('/services', { name: 'solo' })).status).toBe(201);
    const card = {
      name: 'Tiny',
      rules: [{ id: 'owner', kind: 'hasOwner' }],
      levels: [{ name: 'one', rules: ['owner'] }],
    };
    expect((await admin.post('/scorecards', card)).status).toBe(201);
    const times = async () =>
      ((await admin.get('/scorecards/tiny/results')).body.data as Json[]).map((r) =>
        Date.parse(r.evaluatedAt),
      );
    await eventually(async () => expect(await times()).toHaveLength(1));
    const [first] = await times();
    await eventually(async () => expect((await times())[0]).toBeGreaterThan(first), {
      timeout: 5000,
    });
  });
});
