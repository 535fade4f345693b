import { sql } from '@platform/db';
import { jsonApi, serviceUnderTest, useService, type JsonApi } from '@platform/testing';
import type { CatalogDatabase } from '../src/database';
import { catalog } from '../src/index';
import { explainSearch } from '../src/repositories/search';

const svc = useService(() => serviceUnderTest(catalog, { jobs: false }), { scope: 'all' });
let api: JsonApi;
// One catalog for the file: its tests only read.
beforeAll(async () => {
  api = jsonApi(svc.app, catalog.prefix);
  await seed();
});

const many = <T>(count: number, row: (i: number) => T) =>
  Array.from({ length: count }, (_, i) => row(i));
const tags = (...list: string[]) => JSON.stringify(list) as unknown as string[];

/**
 * A catalog of a modest real size, 1,000 each of services and systems, 2,000 owners and APIs,
 * where a planner prefers the trigram indexes to reading the tables (it reads a table of a few
 * dozen rows, rightly). A table never analyzed (PGlite never runs autovacuum) is sized from its
 * pages and the widths of its columns: since APIs have ownership columns, 1,000 of them are
 * estimated at a size a scan reads as cheaply, and owners too since their namespace and profile
 * columns (issue 37). Written in one statement per table: the API would
 * take a request per record.
 */
async function seed() {
  // Never analyzed on PostgreSQL either: its autovacuum analyzed a table now and then during the
  // file, and the plans then depended on when (a sequential scan once in a PostgreSQL pass).
  for (const table of TABLES)
    await sql`alter table ${sql.table(`${catalog.name}.${table}`)} set (autovacuum_enabled = false)`.execute(
      svc.db.kysely,
    );
  const db = svc.db.schema<CatalogDatabase>(catalog.name);
  await db
    .insertInto('services')
    .values([
      ...many(1000, (i) => ({
        id: `svc${i}`,
        name: `svc-${i}`,
        description: `Generated service ${i} of layer ${i % 20}`,
        tags: tags(`layer-${i % 20}`, i % 2 ? 'odd' : 'even'),
      })),
      { id: 'pct', name: 'discount-50%', description: null, tags: tags() },
      { id: 'nopct', name: 'discount-500', description: null, tags: tags() },
    ])
    .execute();
  await db
    .insertInto('systems')
    .values(
      many(1000, (i) => ({
        id: `sys${i}`,
        name: `system-${i}`,
        description: `System ${i}`,
        tags: tags('web'),
      })),
    )
    .execute();
  await db
    .insertInto('owners')
    .values(
      many(2000, (i) => ({
        id: `own${i}`,
        name: `team-${i}`,
        email: `team-${i}@example.com`,
        team: `Crew ${i}`,
      })),
    )
    .execute();
  await db
    .insertInto('apis')
    .values(
      many(2000, (i) => ({
        id: `api${i}`,
        name: `api-${i}`,
        type: 'openapi' as const,
        description: `API ${i}`,
      })),
    )
    .execute();
}

/** The scans of the plan of GET /search?q=`q` (and `kind`), as the route runs it. */
async function scans(q: string, kind?: string) {
  const plan = await explainSearch(
    svc.db.schema<CatalogDatabase>(catalog.name),
    q,
    q.split(' '),
    20,
    kind,
  );
  return plan.match(
    /(Seq Scan on|Bitmap Index Scan on|Index Scan using|Index Only Scan using) \w+/g,
  );
}

const TABLES = ['services', 'systems', 'owners', 'apis'];
const indexed = (tables: string[]) => tables.map((t) => `Bitmap Index Scan on ${t}_search_idx`);

describe('search through the trigram indexes', () => {
  it('finds the candidates of every table through its index, a short word beside', async () => {
    expect(await scans('zebra')).toEqual(indexed(TABLES));
    expect(await scans('crew 12')).toEqual(indexed(TABLES));
    expect((await api.get('/search?q=zebra')).body.data).toEqual([]);
  });

  it('reads only the index of the kind asked for', async () => {
    expect(await scans('zebra', 'api')).toEqual(indexed(['apis']));
    expect(await scans('crew 12', 'owner')).toEqual(indexed(['owners']));
  });

  it('answers from the index as it ranks: prefix, literal wildcards', async () => {
    expect(await scans('svc-12', 'service')).toEqual(indexed(['services']));
    const names = async (query: string) =>
      (await api.get(`/search${query}`)).body.data.map(
        (h: { name: string; match: string }) => `${h.name}:${h.match}`,
      );
    expect(await names('?q=SVC-12&kind=service&limit=4')).toEqual([
      'svc-12:name',
      'svc-120:name-prefix',
      'svc-121:name-prefix',
      'svc-122:name-prefix',
    ]);
    expect(await scans('50%')).toEqual(indexed(TABLES));
    expect(await names('?q=50%25')).toEqual(['discount-50%:name-contains']);
  });
});
