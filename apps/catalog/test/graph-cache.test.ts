import { sql, type PlatformDatabase } from '@platform/db';
import {
  jsonApi,
  serviceUnderTest,
  oneDatabaseTwice,
  type Json,
  type JsonApi,
} from '@platform/testing';
import { catalog } from '../src/index';

// The walk answers from a graph kept in memory (repositories/graph.ts): these prove that every
// write is seen by the next walk, whoever makes it.

let dbs: Awaited<ReturnType<typeof oneDatabaseTwice>>;
let a: JsonApi;
let b: JsonApi;
let closeApps: () => Promise<unknown>;
beforeEach(async () => {
  dbs = await oneDatabaseTwice();
  // Not serviceUnderTest's close: it would close the database the other one still uses.
  const one = await serviceUnderTest(catalog, { db: dbs.first, jobs: false });
  const two = await serviceUnderTest(catalog, { db: dbs.second, jobs: false });
  closeApps = () => Promise.all([one.app.close(), two.app.close()]);
  a = jsonApi(one.app, catalog.prefix);
  b = jsonApi(two.app, catalog.prefix);
  for (const name of ['web', 'api', 'db', 'audit'])
    expect((await a.post('/services', { name })).status).toBe(201);
  for (const [from, to] of [
    ['web', 'api'],
    ['api', 'db'],
  ])
    expect((await a.post(`/services/${from}/dependencies`, { dependsOn: to })).status).toBe(200);
});
afterEach(async () => {
  await closeApps();
  await dbs.close();
});

const walk = async (api: JsonApi, query: string) => {
  const res = await api.get(`/deps/${query}`);
  expect(res.status).toBe(200);
  return res.body.data;
};
const names = (g: Json) => g.nodes.map((n: Json) => `${n.name}@${n.depth}`);
const version = async (db: PlatformDatabase) =>
  (await sql<{ version: number }>`select version from catalog.graph_version`.execute(db.kysely))
    .rows[0].version;

describe('the graph in memory', () => {
  it('sees each write made through the API by the next walk', async () => {
    expect(names(await walk(a, 'web'))).toEqual(['web@0', 'api@1', 'db@2']);
    await a.post('/services/web/dependencies', { dependsOn: 'audit' });
    expect(names(await walk(a, 'web'))).toEqual(['web@0', 'api@1', 'audit@1', 'db@2']);
    // A new name, which also moves it among the services at its depth.
    expect((await a.put('/services/audit', { name: 'accounts' })).status).toBe(200);
    expect(names(await walk(a, 'web'))).toEqual(['web@0', 'accounts@1', 'api@1', 'db@2']);
    expect((await a.del('/services/api')).status).toBe(200);
    expect(names(await walk(a, 'web'))).toEqual(['web@0', 'accounts@1']);
    expect((await a.del('/services/web/dependencies/accounts')).status).toBe(200);
    expect(names(await walk(a, 'web'))).toEqual(['web@0']);
  });

  it('sees writes made through another instance on the same database', async () => {
    expect(names(await walk(b, 'web'))).toEqual(['web@0', 'api@1', 'db@2']);
    await a.post('/services/db/dependencies', { dependsOn: 'audit' });
    expect(names(await walk(b, 'web'))).toEqual(['web@0', 'api@1', 'db@2', 'audit@3']);
    // A service created through one instance is walked from through the other at once.
    expect((await a.post('/services', { name: 'edge' })).status).toBe(201);
    await a.post('/services/edge/dependencies', { dependsOn: 'web' });
    expect(names(await walk(b, 'edge?depth=1'))).toEqual(['edge@0', 'web@1']);
    expect((await b.del('/services/edge')).status).toBe(200);
    expect((await a.get('/deps/edge')).status).toBe(404);
  });

  it('sees writes made in plain SQL on another connection, to every table it is made of', async () => {
    expect(names(await walk(a, 'web?include=apis'))).toEqual(['web@0', 'api@1', 'db@2']);
    const run = (statement: ReturnType<typeof sql>) => statement.execute(dbs.second.kysely);
    await run(sql`update catalog.services set name = 'store' where name = 'db'`);
    expect(names(await walk(a, 'web'))).toEqual(['web@0', 'api@1', 'store@2']);
    await run(sql`delete from catalog.dependencies where depends_on_id =
      (select id from catalog.services where name = 'store')`);
    expect(names(await walk(a, 'web'))).toEqual(['web@0', 'api@1']);
    // APIs: audit provides one that api consumes.
    await run(sql`insert into catalog.apis (id, name, type) values ('x1', 'events', 'openapi')`);
    await run(sql`insert into catalog.service_apis (service_id, relation, api_id)
      select id, case name when 'audit' then 'provides' else 'consumes' end, 'x1'
      from catalog.services where name in ('audit', 'api')`);
    const g = await walk(a, 'web?include=apis');
    expect(names(g)).toEqual(['web@0', 'api@1', 'audit@2']);
    expect(g.apis).toEqual([{ id: 'x1', name: 'events' }]);
    await run(sql`update catalog.apis set name = 'audit-events' where id = 'x1'`);
    expect((await walk(a, 'web?include=apis')).apis).toEqual([{ id: 'x1', name: 'audit-events' }]);
    await run(sql`delete from catalog.service_apis where api_id = 'x1'`);
    expect(names(await walk(a, 'web?include=apis'))).toEqual(['web@0', 'api@1']);
  });

  it('moves with every write of its tables (the lock comes first), never back, and keeps its row', async () => {
    await walk(a, 'web');
    const before = await version(dbs.first);
    await a.put('/services/web', { description: 'The front end', tags: ['edge'] });
    const described = await version(dbs.first);
    expect(described).toBeGreaterThan(before);
    await a.put('/services/web', { name: 'www' });
    expect(await version(dbs.first)).toBeGreaterThan(described);
    expect((await walk(a, 'www')).root.name).toBe('www');
    await expect(sql`delete from catalog.graph_version`.execute(dbs.first.kysely)).rejects.toThrow(
      /keeps exactly one row/,
    );
    expect((await walk(a, 'www')).root.name).toBe('www');
  });
});
