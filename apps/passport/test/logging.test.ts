import { Writable } from 'node:stream';
import { authSettings, buildServiceApp, type App } from '@platform/core';
import { migrateSchema, type PlatformDatabase } from '@platform/db';
import { testDatabase } from '@platform/testing';
import { passport } from '../src/index';
import { PREFIX } from './helpers';

let db: PlatformDatabase;
let app: App;
const lines: string[] = [];
beforeAll(async () => {
  db = await testDatabase();
  await migrateSchema(db, passport.name, passport.migrations);
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  app = await buildServiceApp(
    passport,
    { database: db, config: passport.config({}), jobs: false, auth: authSettings({}) },
    { logger: { level: 'info', stream } },
  );
});
afterAll(async () => {
  await app.close();
  await db.close();
});

it('keeps the callback URLs (code and state) out of the request log', async () => {
  for (const path of ['/callback', '/providers/callback'])
    await app.inject({ url: `${PREFIX}${path}?code=planted-code&state=planted-state` });
  await app.inject({ url: `${PREFIX}/healthz?probe=planted-probe` });
  const log = lines.join('');
  expect(log).toContain('planted-probe'); // the log works: other requests are in it
  expect(log).not.toContain('planted-code');
  expect(log).not.toContain('planted-state');
});
