import { sql } from '@platform/db';
import type { Json, ServiceUnderTest } from '@platform/testing';
import {
  authEnv,
  browser,
  PREFIX,
  signIn,
  startIdp,
  startPassport,
  type Browser,
  type Claims,
  type Idp,
} from './helpers';

// Roles (issue 31): AUTH_ADMINS and AUTH_ADMIN_GROUPS make admins, AUTH_DEFAULT_ROLE everyone else,
// and admins change a person's role; keys never exceed their creator, team keys outlive theirs.

const person = (email: string, groups?: string[]): Claims =>
  ({ email, email_verified: true, name: email, ...(groups ? { groups } : {}) }) as Claims;

let idp: Idp;
let svc: ServiceUnderTest;
let base: string;
const people: Record<string, Browser> = {};
beforeAll(async () => {
  idp = await startIdp();
  const env = authEnv(idp, {
    AUTH_ADMINS: 'root@example.com',
    AUTH_ADMIN_GROUPS: 'platform-admins',
    AUTH_DEFAULT_ROLE: 'viewer',
  });
  ({ svc, base } = await startPassport(env));
  for (const [name, claims] of [
    ['root', person('root@example.com')],
    ['ops', person('ops@example.com', ['platform-admins', 'payments'])],
    ['ann', person('ann@example.com', ['payments'])],
    ['bob', person('bob@example.com')],
  ] as const) {
    await idp.setClaims(claims);
    people[name] = (await signIn(base, browser())).browser;
  }
});
afterAll(async () => {
  await svc.close();
  await idp.stop();
});

async function call(who: Browser | string, method: string, path: string, body?: object) {
  const init: RequestInit = {
    method,
    headers: {
      ...(typeof who === 'string' ? { 'x-api-key': who } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  };
  const url = `${base}${PREFIX}${path}`;
  const res = typeof who === 'string' ? await fetch(url, init) : await who.request(url, init);
  return { status: res.status, body: (await res.json()) as Json };
}
const roleOf = async (who: Browser | string) => (await call(who, 'GET', '/me')).body.data.role;
const roleEvents = () =>
  sql<{
    payload: Json;
  }>`select payload from passport.jobs where kind = 'audit' and payload->>'action' = 'user.role.changed' order by created_at`
    .execute(svc.db.kysely)
    .then((r) => r.rows.map((row) => row.payload));

describe('roles', () => {
  it('come from AUTH_ADMINS, AUTH_ADMIN_GROUPS and AUTH_DEFAULT_ROLE', async () => {
    expect(await roleOf(people.root)).toBe('admin');
    expect(await roleOf(people.ops)).toBe('admin');
    expect(await roleOf(people.ann)).toBe('viewer');
    expect((await call(people.ann, 'GET', '/me')).body.data.groups).toEqual(['payments']);
  });

  it('are changed by admins only, audited, and in force from the next request', async () => {
    const refused = await call(people.ann, 'PUT', '/users/bob@example.com/role', { role: 'admin' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(
      'ann@example.com may not manage passport.role: it needs the role admin',
    );
    expect(await roleOf(people.bob)).toBe('viewer');

    const set = await call(people.root, 'PUT', '/users/Bob@Example.com/role', { role: 'member' });
    expect(set.body.data).toMatchObject({
      email: 'bob@example.com',
      role: 'member',
      source: 'set',
    });
    expect(await roleOf(people.bob)).toBe('member');
    expect(await roleEvents()).toEqual([
      expect.objectContaining({
        actor: 'root@example.com',
        resource: 'user:bob@example.com',
        metadata: { from: 'viewer', to: 'member' },
      }),
    ]);
    const listed = (await call(people.ops, 'GET', '/users?role=member')).body.data;
    expect(listed.map((u: { email: string }) => u.email)).toEqual(['bob@example.com']);
  });

  it('refuse to change an admin of AUTH_ADMINS, and a role that does not exist', async () => {
    const fixed = await call(people.ops, 'PUT', '/users/root@example.com/role', { role: 'viewer' });
    expect(fixed.status).toBe(409);
    const bad = await call(people.root, 'PUT', '/users/bob@example.com/role', { role: 'owner' });
    expect(bad.status).toBe(400);
    expect(await roleOf(people.root)).toBe('admin');
  });
});

describe('scoped keys', () => {
  it('never exceed their creator: admin only from an admin, a viewer only reads', async () => {
    const ann = people.ann; // a viewer
    const write = await call(ann, 'POST', '/keys', { name: 'ann-w', scopes: ['catalog:write'] });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toMatch(/viewer's keys may only read: catalog:write/);
    const admin = await call(people.bob, 'POST', '/keys', { name: 'bob-a', scopes: ['admin'] });
    expect(admin.status).toBe(403);
    const bad = await call(people.bob, 'POST', '/keys', { name: 'bob-x', scopes: ['everything'] });
    expect(bad.status).toBe(400);
    const read = await call(ann, 'POST', '/keys', { name: 'ann-r', scopes: ['*:read'] });
    expect(read.status).toBe(201);
    expect(read.body.data).toMatchObject({ scopes: ['*:read'], team: null });
    const keys = (await call(ann, 'GET', '/keys')).body.data.map((k: { name: string }) => k.name);
    expect(keys).toEqual(['ann-r']);
  });

  it('follow their creator: a demoted person demotes their keys at once', async () => {
    await idp.setClaims(person('cy@example.com'));
    const cy = (await signIn(base, browser())).browser;
    await call(people.root, 'PUT', '/users/cy@example.com/role', { role: 'member' });
    const key = (await call(cy, 'POST', '/keys', { name: 'cy-key' })).body.data.key;
    expect(await roleOf(key)).toBe('member');
    await call(people.root, 'PUT', '/users/cy@example.com/role', { role: 'viewer' });
    expect(await roleOf(key)).toBe('viewer');
  });

  it('of a team outlive the person who made them, and only its members make them', async () => {
    const notMine = await call(people.bob, 'POST', '/keys', { name: 't0', team: 'payments' });
    expect(notMine.status).toBe(403);
    expect(notMine.body.error.message).toMatch(/may not name team payments/);
    await call(people.root, 'PUT', '/users/ann@example.com/role', { role: 'member' });
    const made = await call(people.ann, 'POST', '/keys', { name: 'payments-ci', team: 'payments' });
    expect(made.status).toBe(201);
    await call(people.root, 'PUT', '/users/ann@example.com/role', { role: 'viewer' });
    const who = (await call(made.body.data.key, 'GET', '/me')).body.data;
    expect(who).toMatchObject({
      role: 'member',
      owner: null,
      team: 'payments',
      teams: ['payments'],
    });
  });

  it('reach the audit trail when minted, with their scopes and team', async () => {
    const { rows } = await sql<{ payload: Json }>`select payload from passport.jobs
      where kind = 'audit' and payload->>'action' = 'key.created' and payload->'metadata'->>'name' = 'payments-ci'`.execute(
      svc.db.kysely,
    );
    expect(rows[0].payload.metadata).toMatchObject({ scopes: '*', team: 'payments' });
  });
});
