import { join } from 'node:path';
import { buildServiceApp, defineService } from '@platform/core';
import { sql } from '@platform/db';
import { testDatabase } from '@platform/testing';

describe('database errors a request can cause', () => {
  // Real errors from the test database (PGlite, or Postgres with DATABASE_URL), not imitations.
  const probe = defineService({
    name: 'probe',
    title: 'Probe',
    root: join(__dirname, '..'),
    defaultPort: 0,
    migrations: {},
    routes: [
      async (app) => {
        const config = { access: { resource: 'probe.thing', action: 'read' as const } };
        const run = (statement: string) => async () => {
          await sql.raw(statement).execute(db.kysely);
          return { success: true, data: null };
        };
        app.get('/duplicate', { config }, run("insert into probe_parent values ('a'), ('a')"));
        app.get('/orphan', { config }, run("insert into probe_child values ('missing')"));
        app.get('/bad-sql', { config }, run('select * from no_such_table'));
      },
    ],
  });

  let app: Awaited<ReturnType<typeof buildServiceApp>>;
  let db: Awaited<ReturnType<typeof testDatabase>>;
  beforeEach(async () => {
    db = await testDatabase();
    await sql.raw('create table probe_parent (id text primary key)').execute(db.kysely);
    await sql
      .raw('create table probe_child (parent text references probe_parent(id))')
      .execute(db.kysely);
    app = await buildServiceApp(
      probe,
      { database: db, config: undefined, jobs: false },
      { logger: false },
    );
  });
  afterEach(async () => {
    await app.close();
    await db.close();
  });

  it.each([
    ['/duplicate', 409, 'CONFLICT', 'A record with the same unique value already exists'],
    [
      '/orphan',
      409,
      'CONFLICT',
      'A record this one refers to was removed meanwhile, or another still refers to it; try again',
    ],
    [
      '/bad-sql',
      500,
      'INTERNAL_ERROR',
      expect.stringMatching(/^Internal server error \(request id /),
    ],
  ])('answers %s with %i %s, without SQL in the message', async (url, status, code, message) => {
    const res = await app.inject({ method: 'GET', url: `/api/v1/probe${url}` });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ success: false, error: { code, message } });
    expect(res.body).not.toMatch(/probe_|insert|select/);
  });
});
