import { jsonApi, serviceUnderTest, useService, type JsonApi } from '@platform/testing';
import { sql, type Expression } from 'kysely';
import type { CatalogDatabase } from '../src/database';
import { catalog } from '../src/index';
import { loadExisting } from '../src/repositories/import';
import { keyInSql, namedIds, namedSql } from '../src/repositories/named';

// No job worker: its polls (the scorecards' jobs) would count among a request's queries.
const svc = useService(() => serviceUnderTest(catalog, { jobs: false }));
let api: JsonApi;
beforeEach(async () => {
  api = jsonApi(svc.app, catalog.prefix);
});

const N = 300;
const serviceId = (i: number) => `svc${String(i).padStart(5, '0')}`;

/**
 * N services (svc-000 ... by name) in system Big and owned by ann, each depending on the two
 * before it, written in one statement per table: the API would take a request per service.
 */
async function seedServices() {
  const system = (await api.post('/systems', { name: 'Big' })).body.data;
  const owner = (await api.post('/owners', { name: 'ann' })).body.data;
  const db = svc.db.schema<CatalogDatabase>(catalog.name);
  await db
    .insertInto('services')
    .values(
      Array.from({ length: N }, (_, i) => ({
        id: serviceId(i),
        name: `svc-${String(i).padStart(3, '0')}`,
        description: null,
        tags: JSON.stringify(['t']) as unknown as string[],
        system_id: system.id,
        owner_id: owner.id,
      })),
    )
    .execute();
  await db
    .insertInto('dependencies')
    .values(
      Array.from({ length: N }, (_, i) => [i - 1, i - 2])
        .flatMap((targets, i) => targets.map((t) => ({ service: i, target: t })))
        .filter(({ target }) => target >= 0)
        .map(({ service, target }) => ({
          service_id: serviceId(service),
          depends_on_id: serviceId(target),
        })),
    )
    .execute();
}

/** The answer to GET `url` and the number of queries it cost. */
async function queriesOf(url: string) {
  svc.queries.reset();
  const res = await api.get(url);
  expect(res.status).toBe(200);
  return { data: res.body.data, queries: svc.queries.count() };
}

describe('query counts', () => {
  it('lists 300 services, with dependencies, system and owner, in as many queries as 1', async () => {
    await seedServices();
    const many = await queriesOf('/services?limit=1000');
    const one = await queriesOf('/services?limit=1');
    expect(many.data).toHaveLength(N);
    expect(one.data).toHaveLength(1);
    expect(many.data[N - 1]).toMatchObject({
      id: serviceId(N - 1),
      system: 'Big',
      owner: 'ann',
      tags: ['t'],
      dependencies: [serviceId(N - 2), serviceId(N - 3)],
    });
    expect(many.data[0].dependencies).toEqual([]);
    expect(many.queries).toBe(one.queries);
    expect(many.queries).toBeLessThanOrEqual(2);

    const filtered = await queriesOf('/services?system=big&owner=ANN&tag=t&limit=1000');
    expect(filtered.data).toHaveLength(N);
    expect(filtered.queries).toBe(one.queries);
  });

  it('replaces 300 dependencies, named by id or name, in as many queries as 1', async () => {
    await seedServices();
    await api.post('/services', { name: 'hub' });
    const put = async (dependencies: string[]) => {
      svc.queries.reset();
      const res = await api.put('/services/hub', { dependencies });
      expect(res.status).toBe(200);
      return { data: res.body.data, queries: svc.queries.count() };
    };
    const names = Array.from({ length: N }, (_, i) => `SVC-${String(i).padStart(3, '0')}`);
    const many = await put(names);
    const one = await put([serviceId(0)]);
    expect(many.data.dependencies).toEqual(Array.from({ length: N }, (_, i) => serviceId(i)));
    expect(one.data.dependencies).toEqual([serviceId(0)]);
    expect(many.queries).toBe(one.queries);
    expect(
      (await api.put('/services/hub', { dependencies: ['svc-000', 'nope'] })).body.error,
    ).toEqual({ code: 'NOT_FOUND', message: 'Service not found: nope' });
  });

  it('gets a system or an owner with 300 services in as many queries as one with 1', async () => {
    await seedServices();
    await api.post('/systems', { name: 'Small' });
    await api.post('/owners', { name: 'bob' });
    await api.post('/services', { name: 'lonely', system: 'Small', owner: 'bob' });
    for (const [path, big, small] of [
      ['systems', 'Big', 'Small'],
      ['owners', 'ann', 'bob'],
    ]) {
      const many = await queriesOf(`/${path}/${big}`);
      const one = await queriesOf(`/${path}/${small}`);
      expect(many.data.services).toHaveLength(N);
      expect(one.data.services).toEqual([{ id: expect.any(String), name: 'lonely' }]);
      expect(many.queries).toBe(one.queries);
    }
  });

  it('lists 300 systems or owners in as many queries as 1', async () => {
    const db = svc.db.schema<CatalogDatabase>(catalog.name);
    const rows = Array.from({ length: N }, (_, i) => ({ id: serviceId(i), name: `r-${i}` }));
    await db.insertInto('systems').values(rows).execute();
    await db.insertInto('owners').values(rows).execute();
    for (const path of ['systems', 'owners']) {
      const many = await queriesOf(`/${path}?limit=1000`);
      const one = await queriesOf(`/${path}?limit=1`);
      expect(many.data).toHaveLength(N);
      expect(many.queries).toBe(one.queries);
    }
  });
});

describe('query counts with APIs', () => {
  /** N APIs; service i provides API i and consumes APIs i-1 and i-2. */
  async function seedApis() {
    await seedServices();
    const db = svc.db.schema<CatalogDatabase>(catalog.name);
    const apiId = (i: number) => `api${String(i).padStart(5, '0')}`;
    await db
      .insertInto('apis')
      .values(
        Array.from({ length: N }, (_, i) => ({
          id: apiId(i),
          name: `api-${String(i).padStart(3, '0')}`,
          type: 'openapi' as const,
        })),
      )
      .execute();
    await db
      .insertInto('service_apis')
      .values(
        Array.from({ length: N }, (_, i) => [
          { service_id: serviceId(i), relation: 'provides' as const, api_id: apiId(i) },
          ...[i - 1, i - 2]
            .filter((t) => t >= 0)
            .map((t) => ({
              service_id: serviceId(i),
              relation: 'consumes' as const,
              api_id: apiId(t),
            })),
        ]).flat(),
      )
      .execute();
    return apiId;
  }

  it('lists 300 services with their APIs, and 300 APIs with their services, in as many queries as 1', async () => {
    const apiId = await seedApis();
    const many = await queriesOf('/services?limit=1000');
    const one = await queriesOf('/services?limit=1');
    expect(many.data[N - 1]).toMatchObject({
      dependencies: [serviceId(N - 2), serviceId(N - 3)],
      providesApis: [apiId(N - 1)],
      consumesApis: [apiId(N - 2), apiId(N - 3)],
    });
    expect(many.queries).toBe(one.queries);
    expect(many.queries).toBeLessThanOrEqual(2);

    const apis = await queriesOf('/apis?limit=1000');
    const oneApi = await queriesOf('/apis?limit=1');
    expect(apis.data).toHaveLength(N);
    expect(apis.data[0]).toMatchObject({
      name: 'api-000',
      providedBy: [serviceId(0)],
      consumedBy: [serviceId(1), serviceId(2)],
    });
    expect(apis.queries).toBe(oneApi.queries);
    expect(apis.queries).toBeLessThanOrEqual(2);
  });

  it('replaces 300 consumed APIs, named by id or name, in as many queries as 1', async () => {
    await seedApis();
    await api.post('/services', { name: 'hub' });
    const put = async (consumesApis: string[]) => {
      svc.queries.reset();
      const res = await api.put('/services/hub', { consumesApis });
      expect(res.status).toBe(200);
      return { data: res.body.data, queries: svc.queries.count() };
    };
    const many = await put(
      Array.from({ length: N }, (_, i) => `API-${String(i).padStart(3, '0')}`),
    );
    const one = await put(['api-000']);
    expect(many.data.consumesApis).toHaveLength(N);
    expect(many.queries).toBe(one.queries);
  });
});

describe('lookups by namespace and name', () => {
  it('go through the unique index on (lower(namespace), lower(name)) of 3,000 rows', async () => {
    const db = svc.db.schema<CatalogDatabase>(catalog.name);
    await db
      .insertInto('services')
      .values(
        Array.from({ length: 3000 }, (_, i) => ({
          id: `ix${i}`,
          name: `ix-${i}`,
          namespace: i % 2 ? 'shop' : 'default',
          ...{ description: null, tags: [], system_id: null, owner_id: null },
          ...{ type: null, lifecycle: null, created_by: null, team: null },
        })),
      )
      .execute();
    await sql`analyze catalog.services`.execute(db);
    const plan = async (where: Expression<boolean>) => {
      const query = db.selectFrom('services').select('id').where(where);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(db);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    // namedSql (a path's :idOrName), keyInSql (namedIds and the import's loadExisting).
    for (const where of [
      namedSql('shop/IX-11'),
      namedSql('ix-12'),
      keyInSql([
        ['Shop', 'ix-11'],
        ['default', 'ix-12'],
      ]),
    ]) {
      const text = await plan(where);
      expect(text).toMatch(/services_namespace_name_key/);
      expect(text).not.toMatch(/Seq Scan/);
    }
    expect(await namedIds(db, 'services', ['shop/IX-11', 'ix-12', 'ix3', 'shop/ix-12'])).toEqual([
      'ix11',
      'ix12',
      'ix3',
      undefined,
    ]);
  });

  it("reads the memberships of the import's owners only", async () => {
    const db = svc.db.schema<CatalogDatabase>(catalog.name);
    const ids = ['g1', 'u1', 'g2', 'u2'];
    await db
      .insertInto('owners')
      .values(ids.map((id) => ({ id, name: id, kind: id[0] === 'g' ? 'group' : 'user' })))
      .execute();
    await db
      .insertInto('memberships')
      .values([
        { group_id: 'g1', member_id: 'u1' },
        { group_id: 'g2', member_id: 'u2' },
      ])
      .execute();
    const none = { domain: [], system: [], api: [], service: [], template: [] };
    const touched = await loadExisting(db, { ...none, owner: [['default', 'U1']] });
    expect(touched.memberships).toEqual([expect.objectContaining({ group_id: 'g1' })]);
    expect((await loadExisting(db, { ...none, owner: [] })).memberships).toEqual([]);
  });
});

describe('paging', () => {
  it.each(['/systems', '/owners', '/services', '/apis'])(
    'answers 400, not 500, for an offset too large for the database on %s',
    async (path) => {
      const res = await api.get(`${path}?offset=99999999999999999999`);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: 'BAD_REQUEST',
        message: 'offset must be at most 2147483647',
      });
    },
  );
});
