import { newId } from '@platform/core';
import { CALLERS, sleep, useService } from '@platform/testing';
import { changeOwnerRule } from '../src/domain/owners-rules';
import { insertOwnerRule, replaceSnapshot } from '../src/repositories/owners';
import { JANUARY, ownersWorld } from './owners-world';

// Spend owned by teams (issue 39, item 3): items resolve to catalog services by id, by name and
// by the owner rules teams define (FOCUS ServiceName, tags); reports by catalog service, system
// and owner with unmatched spend listed; the catalog off keeps the last snapshot. One world for
// the file (owners-world.ts): the tests run in order and build on each other.

const w = useService(ownersWorld, { scope: 'all', timeout: 60_000 });
const { teamMate, stranger, viewer } = CALLERS;

describe('resolution', () => {
  it('resolves an item by catalog service id, by name in any case, and leaves others unmatched', async () => {
    expect(w.items.checkout).toMatchObject({
      catalogService: w.ids.checkout,
      catalogSystem: null,
      catalogOwner: 'payments',
    });
    expect(w.items.search).toMatchObject({
      catalogService: w.ids.search,
      catalogSystem: w.ids.storage,
      catalogOwner: 'search-team',
    });
    expect(w.items.mystery).toMatchObject({ catalogService: null, catalogOwner: null });
    // FOCUS items resolve when imported: no catalog service is called Amazon anything.
    expect(await w.item('Amazon RDS')).toMatchObject({ catalogService: null });
  });

  it('maps FOCUS ServiceName and tags by rules, and re-resolves when a rule changes', async () => {
    const rds = await w.as(teamMate).post('/owner-rules', {
      target: 'SHARED-DB',
      focusColumn: 'ServiceName',
      focusValue: 'amazon rds',
    });
    expect(rds.status).toBe(201);
    expect(rds.body.data).toMatchObject({
      target: { id: w.ids['shared-db'], name: 'shared-db', owner: 'payments' },
      focusColumn: 'ServiceName',
      priority: 10,
      createdBy: teamMate.kind === 'user' ? teamMate.email : null,
      itemsChanged: 1,
    });
    expect(await w.item('Amazon RDS')).toMatchObject({
      catalogService: w.ids['shared-db'],
      catalogSystem: w.ids.storage,
      catalogOwner: 'payments',
    });
    // FOCUS Tags keys and values compare in any case ({"team":"search"} here).
    const tag = await w.admin.post('/owner-rules', { target: w.ids.search, tag: 'TEAM=Search' });
    expect(tag.body.data).toMatchObject({ tag: 'TEAM=Search', priority: 20, itemsChanged: 1 });
    expect(await w.item('Amazon EC2')).toMatchObject({ catalogService: w.ids.search });

    // A rule of higher priority wins; changing it moves the items; removing it moves them back.
    const first = await w.admin.post('/owner-rules', {
      target: 'checkout',
      provider: 'aws',
      priority: 1,
    });
    expect(first.body.data.itemsChanged).toBe(3); // RDS, EC2, and S3 (unmatched before)
    expect((await w.item('Amazon EC2')).catalogService).toBe(w.ids.checkout);
    const moved = await w.admin.put(`/owner-rules/${first.body.data.id}`, { target: 'search' });
    expect(moved.body.data).toMatchObject({ target: { name: 'search' }, itemsChanged: 3 });
    expect((await w.item('Amazon RDS')).catalogService).toBe(w.ids.search);
    const gone = await w.admin.del(`/owner-rules/${first.body.data.id}`);
    expect(gone.body.data.itemsChanged).toBe(2); // RDS back to shared-db, S3 back to none
    expect((await w.item('Amazon RDS')).catalogService).toBe(w.ids['shared-db']);
    expect((await w.item('Amazon S3')).catalogService).toBeNull();
    const list = await w.as(viewer).get('/owner-rules');
    expect(list.body.data.map((r: { tag: string | null }) => r.tag)).toEqual([null, 'TEAM=Search']);
    // A change of its description alone resolves nothing, and reads no catalog.
    const before = (await w.admin.get('/catalog-snapshot')).body.data;
    const said = await w.admin.put(`/owner-rules/${tag.body.data.id}`, { description: 'EC2' });
    expect(said.body.data).toMatchObject({ description: 'EC2', itemsChanged: 0 });
    expect((await w.admin.get('/catalog-snapshot')).body.data).toEqual(before);
  });
});

describe('reports', () => {
  // January: checkout 1000; search 500 + EC2 300; shared-db RDS 1234; unmatched 250 + 100.
  it('break down by catalog service, system and owner, unmatched spend a row of its own', async () => {
    expect(await w.breakdown('by=catalogService')).toEqual({
      [w.ids['shared-db']]: 1234,
      [w.ids.checkout]: 1000,
      [w.ids.search]: 800,
      '(unmatched)': 350,
    });
    expect(await w.breakdown('by=owner')).toEqual({
      payments: 2234,
      'search-team': 800,
      '(unmatched)': 350,
    });
    expect(await w.breakdown('by=system')).toEqual({
      [w.ids.storage]: 2034,
      '(none)': 1000,
      '(unmatched)': 350,
    });
    const rows = (await w.admin.get(`/reports/breakdown?${JANUARY}&by=system`)).body.data;
    expect(rows[0]).toMatchObject({ name: 'storage', count: 3, percentage: 60.11 });
    // Filters: by owner, system (by name) and catalog service (by name, any case).
    expect(await w.breakdown('by=provider&owner=PAYMENTS')).toEqual({ AWS: 1234, '(none)': 1000 });
    const summary = async (q: string) =>
      (await w.admin.get(`/reports/summary?${JANUARY}&${q}`)).body.data;
    expect(await summary('system=storage')).toMatchObject({ totalAmount: 2034, itemCount: 3 });
    expect(await summary('catalogService=Search')).toMatchObject({ totalAmount: 800 });
    expect(await summary('catalogService=nothing-like-it')).toMatchObject({ totalAmount: 0 });
    const trend = await w.admin.get(`/reports/trend?${JANUARY}&interval=month&owner=payments`);
    expect(trend.body.data).toEqual([{ date: '2026-01', amount: 2234, count: 2 }]);
  });

  it('lists unmatched spend by provider and raw service', async () => {
    const res = await w.as(viewer).get(`/reports/unmatched?${JANUARY}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({ provider: null, service: 'mystery', amount: 250, count: 1 }),
      expect.objectContaining({ provider: 'AWS', service: 'Amazon S3', amount: 100, count: 1 }),
    ]);
  });
});

describe('access and validation', () => {
  it('lets only the target team and admins change rules, naming what is missing', async () => {
    const denied = await w
      .as(stranger)
      .post('/owner-rules', { target: 'shared-db', provider: 'x' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe(
      'stranger@example.com may not create billing.owner-rule: it needs membership of team payments (the owner of catalog service shared-db)',
    );
    expect((await w.as(viewer).post('/owner-rules', { target: 'x', provider: 'x' })).status).toBe(
      403,
    );
    const [rule] = (await w.admin.get('/owner-rules')).body.data;
    expect((await w.as(stranger).del(`/owner-rules/${rule.id}`)).status).toBe(403);
    // A member of payments may not point its rule at another team's service.
    const away = await w.as(teamMate).put(`/owner-rules/${rule.id}`, { target: 'search' });
    expect(away.status).toBe(403);
    expect(away.body.error.message).toContain('membership of team search-team');
    // Nor take another team's items by its conditions (search's item, service SEARCH)...
    const take = await w
      .as(teamMate)
      .post('/owner-rules', { target: 'checkout', service: 'search' });
    expect(take.status).toBe(403);
    expect(take.body.error.message).toBe(
      'mate@example.com may not create billing.owner-rule: it needs membership of team search-team (the change moves the spend of 1 item from or to its catalog services)',
    );
    // ...nor widen its own rule over them (EC2, search-team's by the tag rule after it).
    const wider = { focusColumn: null, focusValue: null, provider: 'aws' };
    const widened = await w.as(teamMate).put(`/owner-rules/${rule.id}`, wider);
    expect(widened.status).toBe(403);
    expect(widened.body.error.message).toContain('membership of team search-team');
    expect((await w.admin.get('/owner-rules')).body.data).toHaveLength(2);
    expect((await w.item('Amazon EC2')).catalogService).toBe(w.ids.search);
    expect((await w.admin.get(`/owner-rules/${rule.id}`)).body.data.focusColumn).toBe(
      'ServiceName',
    );
    // Reading the whole catalog again is for admins.
    const refresh = await w.as(teamMate).post('/catalog-snapshot/refresh');
    expect(refresh.status).toBe(403);
  });

  it('refuses bad rules with a 400 naming the problem, changing nothing', async () => {
    const bad = async (body: object, message: string) => {
      const res = await w.admin.post('/owner-rules', body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    };
    await bad({ target: 'nope', provider: 'x' }, 'target: unknown catalog service "nope"');
    await bad({ target: 'search' }, 'A rule needs a condition');
    await bad(
      { target: 'search', focusColumn: 'ServiceName' },
      'focusColumn and focusValue go together',
    );
    await bad({ target: 'search', focusColumn: 'not a column', focusValue: 'x' }, 'focusColumn');
    expect((await w.admin.get('/owner-rules')).body.data).toHaveLength(2);
    expect((await w.item('Amazon RDS')).catalogService).toBe(w.ids['shared-db']);
  });
});

describe('with the catalog off', () => {
  afterAll(() => w.setEnabled('catalog', true));

  it('keeps the last snapshot, says so, and resolves new items by it', async () => {
    w.setEnabled('catalog', false);
    const refreshed = await w.admin.post('/catalog-snapshot/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data).toMatchObject({ services: 3, stale: true, itemsChanged: 0 });
    // A reason any viewer may see: no addresses, no transport's words.
    expect(refreshed.body.data.error).toBe('The catalog could not be read: it is off');
    expect((await w.as(viewer).get('/status')).body.data.catalog).toMatchObject({ stale: true });
    const made = await w.admin.post('/items', { name: 'd', amount: 1, service: 'checkout' });
    expect(made.body.data.catalogService).toBe(w.ids.checkout);
    // A rule to a service the snapshot lacks is refused, saying why the catalog could not tell.
    const res = await w.admin.post('/owner-rules', { target: 'new-service', provider: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('The catalog could not be read');
    // Reports still answer by the snapshot.
    expect((await w.breakdown('by=owner')).payments).toBe(2234);
    w.setEnabled('catalog', true);
    const back = await w.admin.post('/catalog-snapshot/refresh');
    expect(back.body.data).toMatchObject({ stale: false, error: null });
  });
});

describe('a change of the catalog', () => {
  it('re-resolves the items of the services that changed, keeps a newer snapshot', async () => {
    const mystery = (await w.catalog.post('/services', { name: 'Mystery', owner: 'search-team' }))
      .body.data;
    const refreshed = await w.admin.post('/catalog-snapshot/refresh');
    expect(refreshed.body.data).toMatchObject({ services: 4, itemsChanged: 1 });
    expect((await w.item('mystery')).catalogService).toBe(mystery.id);
    // A catalog listing a service twice (while it changes) is taken once.
    const db = w.billingDb();
    const rows = await db.selectFrom('catalog_services').selectAll().execute();
    const twice = [...rows, { ...rows[0] }];
    const at = new Date();
    const same = await db.transaction().execute((trx) => replaceSnapshot(trx, twice, at));
    expect(same).toEqual({ ids: [], keys: [] });
    // A fetch that started earlier and ends later leaves the newer snapshot as it is.
    const early = new Date(at.getTime() - 60_000);
    const late = await db.transaction().execute((trx) => replaceSnapshot(trx, [], early));
    expect(late).toBeUndefined();
    expect((await w.admin.get('/catalog-snapshot')).body.data).toMatchObject({
      services: 4,
      fetchedAt: at.toISOString(),
    });
  });
});

describe('rule changes at once', () => {
  it('resolve every item by both, and items written meanwhile too', async () => {
    // B: Amazon S3 (unmatched) to checkout, before A: AWS to search. Under READ COMMITTED without
    // the resolution lock, A would resolve S3 by the rules it sees (not B) and overwrite B's
    // result once B commits; the item written meanwhile would be resolved by neither.
    const b = {
      id: newId(),
      priority: 2,
      ...{ provider: null, service: null, tag_key: null, tag_value: null },
      focus_column: 'ServiceName',
      focus_value: 'Amazon S3',
      target: w.ids.checkout,
      ...{ description: null, created_by: null, team: 'payments' },
    };
    let release!: () => void;
    let taken!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = new Promise<void>((resolve) => (taken = resolve));
    const onPostgres = w.db.kind === 'postgres';
    const holder = changeOwnerRule(w.billingDb(), {
      write: (trx) => insertOwnerRule(trx, b),
      // B holds its transaction open (on PostgreSQL) while A and the item are sent.
      check: async () => {
        taken();
        if (onPostgres) await held;
      },
    });
    if (onPostgres) await holding;
    const a = w.admin.post('/owner-rules', { target: 'search', provider: 'aws', priority: 3 });
    const late = { name: 'late', amount: 7, date: '2026-03-01', service: 'Amazon S3' };
    const item = w.admin.post('/items', { ...late, provider: 'AWS' });
    if (onPostgres) await sleep(300);
    release();
    await holder;
    expect((await a).status).toBe(201);
    expect((await item).body.data.catalogService).toBe(w.ids.checkout);
    expect((await w.item('Amazon S3')).catalogService).toBe(w.ids.checkout);
    expect((await w.item('Amazon RDS')).catalogService).toBe(w.ids.search);
  });
});
