import {
  AUTH_ENV,
  CALLERS,
  deadUrl,
  jsonApiAs,
  keyCaller,
  person,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import type { Identity } from '@platform/core';
import type { CatalogDatabase } from '../src/database';
import { catalog } from '../src/index';
import { explainOwners } from '../src/repositories/owners';

// Owners are the platform's teams: their members (and the `groups` claim of their name) are in
// them. This catalog listens on a port and is its own PLATFORM_URL, so that the policy's teams
// directory asks it `GET /owners?member=` over HTTP, as every service asks the catalog.
const svc = useService(
  async () => {
    const url = await deadUrl();
    const started = await serviceUnderTest(catalog, {
      env: { ...AUTH_ENV, PLATFORM_URL: url },
      jobs: false,
    });
    await started.app.listen({ port: Number(new URL(url).port), host: '127.0.0.1' });
    return started;
  },
  { scope: 'all' },
);

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, catalog.prefix, identity);
const admin = () => as(CALLERS.admin);
const names = (body: { data: Array<{ name: string }> }) => body.data.map((r) => r.name);

describe('owners have members', () => {
  it('keeps members in lower case without repeats, filters by member in any case', async () => {
    const created = await admin().post('/owners', {
      name: 'crew',
      members: ['Ann@Example.com', 'bob@example.com', 'ann@example.com'],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      members: ['ann@example.com', 'bob@example.com'],
      createdBy: 'root@example.com',
    });
    await admin().post('/owners', { name: 'other', members: ['bob@example.com'] });
    await admin().post('/owners', { name: 'nobody' });
    expect((await admin().get('/owners/nobody')).body.data.members).toEqual([]);
    expect(names((await as(CALLERS.viewer).get('/owners?member=ANN@example.COM')).body)).toEqual([
      'crew',
    ]);
    expect(names((await admin().get('/owners?member=bob@example.com')).body)).toEqual([
      'crew',
      'other',
    ]);
    expect((await admin().get('/owners?member=zed@example.com')).body.data).toEqual([]);
    const replaced = await admin().put('/owners/crew', { members: ['Cy@example.com'] });
    expect(replaced.body.data.members).toEqual(['cy@example.com']);
    expect(names((await admin().get('/owners?member=ann@example.com')).body)).toEqual([]);
  });

  it('refuses members that are not emails, or more than 1000, and stores nothing', async () => {
    const bad = await admin().post('/owners', { name: 'bad', members: ['ann@example.com', 'x'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('members[1] has an invalid format (expected email)');
    const many = Array.from({ length: 1001 }, (_, i) => `p${i}@example.com`);
    const tooMany = await admin().post('/owners', { name: 'bad', members: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toMatch(/^members must have at most 1000 items/);
    expect((await admin().get('/owners/bad')).status).toBe(404);
    const full = await admin().post('/owners', { name: 'full', members: many.slice(0, 1000) });
    expect(full.body.data.members).toHaveLength(1000);
  });

  it('answers the member filter from the GIN index on members', async () => {
    const db = svc.db.schema<CatalogDatabase>(catalog.name);
    const members = (i: number) => JSON.stringify([`m${i}@example.com`, `all${i % 7}@example.com`]);
    await db
      .insertInto('owners')
      .values(
        Array.from({ length: 2000 }, (_, i) => ({
          id: `gin${i}`,
          name: `gin-${i}`,
          email: null,
          team: null,
          created_by: null,
          members: members(i) as unknown as string[],
        })),
      )
      .execute();
    const plan = await explainOwners(db, { member: 'M12@example.com', limit: 1000, offset: 0 });
    expect(plan).toMatch(/Bitmap Index Scan on owners_members_idx/);
    expect(names((await admin().get('/owners?member=M12@example.com')).body)).toEqual(['gin-12']);
  });
});

describe('a team is an owner: its members and its groups claim', () => {
  it('lets a member of an owner name it as a team, and its members change what it owns', async () => {
    const ann = person('ann@example.com');
    const cy = person('cy@example.com');
    await admin().post('/owners', { name: 'search', members: ['ANN@example.com'] });
    const made = await as(ann).post('/services', { name: 'indexer', team: 'Search' });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ createdBy: 'ann@example.com', team: 'Search' });
    // Cy is not in it (yet): naming it is refused, changing what it owns too.
    const named = await as(cy).post('/services', { name: 'crawler', team: 'search' });
    expect(named.status).toBe(403);
    expect(named.body.error.message).toBe(
      "cy@example.com may not name team search: only its members (the catalog owner's members or the groups claim) and admins may",
    );
    expect((await admin().get('/services/crawler')).status).toBe(404);
    // Ann, a member, manages the owner record itself: she adds Dee, who then changes the service.
    const dee = person('dee@example.com');
    const added = await as(ann).put('/owners/search', {
      members: ['ann@example.com', 'dee@example.com'],
    });
    expect(added.status).toBe(200);
    const changed = await as(dee).put('/services/indexer', { description: 'by a team mate' });
    expect(changed.status).toBe(200);
    expect(changed.body.data.description).toBe('by a team mate');
  });

  it('keeps two owners of one name in two namespaces two teams', async () => {
    const eve = person('eve@example.com');
    await admin().post('/owners', { name: 'infra', members: ['root@example.com'] });
    await admin().post('/owners', {
      name: 'infra',
      namespace: 'webgrip',
      members: ['eve@example.com'],
    });
    // Eve is in webgrip/infra: she changes that owner and names it as a team, not default's infra.
    expect((await as(eve).put('/owners/webgrip%2Finfra', { email: 'i@example.com' })).status).toBe(
      200,
    );
    expect((await as(eve).put('/owners/infra', { email: 'i@example.com' })).status).toBe(403);
    const mine = await as(eve).post('/services', { name: 'k8s', team: 'webgrip/infra' });
    expect(mine.status).toBe(201);
    expect((await as(eve).post('/services', { name: 'k9s', team: 'infra' })).status).toBe(403);
  });

  it('refuses a slash in a name, and the twin of an owner named with one before', async () => {
    for (const [path, body] of [
      ['/owners', { name: 'acme/ops' }],
      ['/services', { name: 'acme/cart' }],
    ] as const) {
      const res = await admin().post(path, body);
      expect([res.status, res.body.error.message]).toEqual([400, 'name has an invalid format']);
    }
    // Made before names lost their slash: `acme/ops` in default, whose team is `acme/ops`.
    const db = svc.db.schema<CatalogDatabase>(catalog.name);
    await db
      .insertInto('owners')
      .values({ id: 'legacy-ops', name: 'acme/ops', members: '[]' as unknown as string[] })
      .execute();
    const twin = await as(CALLERS.stranger).post('/owners', { name: 'ops', namespace: 'acme' });
    expect(twin.status).toBe(409);
    expect(twin.body.error.message).toBe(
      'A owner named acme/ops exists already: owner legacy-ops in default, made before names lost their slash, is that team',
    );
    const other = await as(CALLERS.stranger).post('/owners', { name: 'ops2', namespace: 'acme' });
    expect(other.status).toBe(201);
    const renamed = await admin().put('/owners/acme%2Fops2', { name: 'OPS' });
    expect(renamed.status).toBe(409);
    const group = (name: string, namespace?: string) => ({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Group',
      metadata: { name, namespace },
    });
    const imported = await as(CALLERS.stranger).post('/import', {
      entities: [group('ops', 'acme'), group('acme/ops3')],
    });
    expect(imported.status).toBe(400);
    expect(imported.body.error.message.split('\n').slice(1)).toEqual([
      '- Group acme/ops3: metadata.name must be a Backstage entity name: 1-63 letters, digits and -_. between them, no slash',
      '- Group acme/ops: its team name acme/ops is taken by owner legacy-ops (acme/ops in default)',
    ]);
    // The old owner keeps working by id.
    expect((await admin().get('/owners/legacy-ops')).body.data.name).toBe('acme/ops');
    expect((await admin().put('/owners/legacy-ops', { email: 'o@example.com' })).status).toBe(200);
  });

  it('refuses a stranger who adds itself to a team, and keeps the members', async () => {
    await admin().post('/owners', { name: 'vault', members: ['ann@example.com'] });
    const before = (await admin().get('/owners/vault')).body.data;
    const joined = await as(CALLERS.stranger).put('/owners/vault', {
      members: ['ann@example.com', 'stranger@example.com'],
    });
    expect(joined.status).toBe(403);
    expect(joined.body.error.message).toBe(
      'stranger@example.com may not update catalog.owner: it needs ownership (it belongs to team vault)',
    );
    expect((await admin().get('/owners/vault')).body.data).toEqual(before);
    expect((await as(CALLERS.stranger).del('/owners/vault')).status).toBe(403);
    expect((await admin().get('/owners/vault')).status).toBe(200);
  });

  it('lets the groups claim of an owner manage it, and not its mere creator', async () => {
    await as(CALLERS.owner).post('/owners', { name: 'payments' });
    const mate = await as(CALLERS.teamMate).put('/owners/payments', {
      members: ['mate@example.com'],
    });
    expect(mate.status).toBe(200);
    const creator = await as(CALLERS.owner).put('/owners/payments', { email: 'pay@example.com' });
    expect(creator.status).toBe(403);
    expect((await as(CALLERS.viewer).put('/owners/payments', { members: [] })).status).toBe(403);
    const kept = (await admin().get('/owners/payments')).body.data;
    expect(kept).toMatchObject({ members: ['mate@example.com'], createdBy: 'owner@example.com' });
  });

  it("refuses a stranger who makes an identity provider group's owner to join that team", async () => {
    // Nobody made the owner of the group "treasury" yet: making it gives no way in.
    const made = await as(CALLERS.stranger).post('/owners', {
      name: 'treasury',
      members: ['stranger@example.com'],
    });
    expect(made.status).toBe(403);
    expect(made.body.error.message).toMatch(/may not name team treasury/);
    expect((await admin().get('/owners/treasury')).status).toBe(404);
    expect((await as(CALLERS.stranger).post('/owners', { name: 'treasury' })).status).toBe(201);
    const joined = await as(CALLERS.stranger).put('/owners/treasury', {
      members: ['stranger@example.com'],
    });
    expect(joined.status).toBe(403);
    expect((await admin().get('/owners/treasury')).body.data.members).toEqual([]);
  });
});

describe('owners with authentication on', () => {
  it('are read by every signed-in caller, made by members and write keys only', async () => {
    await admin().post('/owners', { name: 'readable', members: ['a@example.com'] });
    for (const caller of [CALLERS.viewer, keyCaller(['catalog:read'])]) {
      expect((await as(caller).get('/owners/readable')).body.data.members).toEqual([
        'a@example.com',
      ]);
      expect((await as(caller).get('/owners?member=a@example.com')).status).toBe(200);
    }
    expect((await as(undefined).get('/owners')).status).toBe(401);
    const viewer = await as(CALLERS.viewer).post('/owners', { name: 'refused' });
    expect(viewer.body.error.message).toBe(
      'viewer@example.com may not create catalog.owner: it needs the role member (or admin)',
    );
    const readKey = await as(keyCaller(['catalog:read'])).post('/owners', { name: 'refused' });
    expect(readKey.body.error.message).toMatch(/needs the scope catalog:write$/);
    expect((await admin().get('/owners/refused')).status).toBe(404);
    const key = await as(keyCaller(['catalog:write'])).post('/owners', { name: 'by-key' });
    expect(key.body.data.createdBy).toBe('keyholder@example.com');
    // An owner's `team` is its display name, not an ownership: its team sets any.
    await admin().put('/owners/readable', { members: ['stranger@example.com'] });
    const shown = await as(CALLERS.stranger).put('/owners/readable', { team: 'Anything' });
    expect(shown.body.data).toMatchObject({ team: 'Anything', createdBy: 'root@example.com' });
  });
});
