import {
  decide,
  grants,
  mayOwn,
  principalOf,
  scopeOf,
  type Access,
  type Identity,
  type Principal,
} from '../src/index';

// The one access policy (issue 31): rules, roles, scopes and ownership.

const user = (role: 'viewer' | 'member' | 'admin', email = 'ann@example.com'): Identity => ({
  kind: 'user',
  email,
  name: email,
  sessionId: 's',
  role,
  groups: [],
});
const key = (scopes: string[], role: 'member' | 'admin' = 'member'): Identity => ({
  kind: 'key',
  keyId: 'k',
  name: 'ci',
  role,
  scopes,
  owner: 'ann@example.com',
  team: null,
});
const as = (identity: Identity, teams: string[] = []): Principal => ({ identity, teams });
const READ: Access = { resource: 'catalog.service', action: 'read' };
const DELETE: Access = { resource: 'catalog.service', action: 'delete', rule: 'owner' };
const CONFIG: Access = { resource: 'gateway.feature', action: 'update', rule: 'admin' };

describe('decide', () => {
  it('lets everyone do everything with authentication off', () => {
    expect(decide(as({ kind: 'anonymous' }), CONFIG, false)).toEqual({ allowed: true });
  });

  it('asks anonymous callers to sign in, and lets anyone through a public route', () => {
    expect(decide(as({ kind: 'anonymous' }), READ, true)).toMatchObject({ status: 401 });
    expect(decide(as({ kind: 'anonymous' }), { ...READ, rule: 'public' }, true).allowed).toBe(true);
  });

  it('lets viewers read and never write', () => {
    expect(decide(as(user('viewer')), READ, true).allowed).toBe(true);
    const write = decide(as(user('viewer')), { resource: 'pulse.event', action: 'create' }, true);
    expect(write).toEqual({
      allowed: false,
      status: 403,
      missing: 'the role member (or admin)',
    });
  });

  it('keeps the owner rule to the creator, collaborators, the team and admins', () => {
    const owned = { createdBy: 'Ann@Example.com', team: 'payments', collaborators: ['cy@x.io'] };
    expect(decide(as(user('member')), DELETE, true, owned).allowed).toBe(true);
    expect(decide(as(user('member', 'cy@x.io')), DELETE, true, owned).allowed).toBe(true);
    expect(decide(as(user('member', 'bo@x.io'), ['Payments']), DELETE, true, owned).allowed).toBe(
      true,
    );
    expect(decide(as(user('member', 'bo@x.io')), DELETE, true, owned)).toMatchObject({
      missing: 'ownership (it belongs to Ann@Example.com and team payments)',
    });
    // A viewer who made it may read it, never change it; nobody's row is the admins'.
    expect(decide(as(user('viewer')), DELETE, true, owned).allowed).toBe(false);
    expect(decide(as(user('viewer')), { ...DELETE, action: 'read' }, true, owned).allowed).toBe(
      true,
    );
    const nobody = { createdBy: null, team: null };
    expect(decide(as(user('member')), DELETE, true, nobody)).toMatchObject({
      missing: 'the role admin (it belongs to no one)',
    });
    expect(decide(as(user('admin', 'root@x.io')), DELETE, true, nobody).allowed).toBe(true);
  });

  it('holds a key to its scopes and its role', () => {
    expect(decide(as(key(['catalog:read'])), READ, true).allowed).toBe(true);
    expect(decide(as(key(['catalog:read'])), DELETE, true)).toMatchObject({
      missing: 'the scope catalog:write',
    });
    expect(decide(as(key(['*'], 'admin')), CONFIG, true)).toMatchObject({
      missing: 'the scope admin',
    });
    expect(decide(as(key(['admin'], 'member')), CONFIG, true)).toMatchObject({
      missing: 'the role admin',
    });
    expect(decide(as(key(['admin'], 'admin')), CONFIG, true).allowed).toBe(true);
  });

  it('lets any key through a route that needs no scope (who a key is)', () => {
    const WHO: Access = { resource: 'passport.identity', action: 'read', scope: null };
    expect(scopeOf(WHO)).toBeNull();
    expect(decide(as(key(['pulse:ingest'])), WHO, true).allowed).toBe(true);
    expect(decide(as(key(['pulse:ingest'])), { ...WHO, scope: undefined }, true)).toMatchObject({
      missing: 'the scope passport:read',
    });
  });
});

describe('scopes', () => {
  it('default by action, and grant what their verb covers', () => {
    expect(scopeOf(READ)).toBe('catalog:read');
    expect(scopeOf(DELETE)).toBe('catalog:write');
    expect(scopeOf(CONFIG)).toBe('admin');
    expect(grants(['catalog:write'], 'catalog:read')).toBe(true);
    expect(grants(['pulse:ingest'], 'pulse:read')).toBe(false);
    expect(grants(['pulse:write'], 'pulse:ingest')).toBe(true);
    expect(grants(['*:read'], 'git:read')).toBe(true);
    expect(grants(['*:read'], 'git:write')).toBe(false);
    expect(grants(['*'], 'admin')).toBe(false);
  });
});

describe('teams', () => {
  it('fall back to the groups claim when the catalog cannot be asked (never open)', async () => {
    const person: Identity = { ...user('member', 'bo@x.io'), groups: ['ops'] } as Identity;
    const failing = async () => {
      throw new Error('catalog unreachable');
    };
    expect((await principalOf(person, failing)).teams).toEqual(['ops']);
    const owned = { createdBy: 'ann@example.com', team: 'payments' };
    const options = { authOn: true, teams: failing };
    expect(await mayOwn(person, owned, options)).toBe(false);
    expect(await mayOwn(person, owned, { ...options, teams: async () => ['payments'] })).toBe(true);
  });
});
