import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import type { Identity } from '@platform/core';
import { palette } from '../src/index';

// The design system is shared knowledge: every signed-in caller reads it, members add to it, and
// a record's creator, its team and admins change or delete it (issue 31).
const svc = useService(() => serviceUnderTest(palette, { env: AUTH_ENV, jobs: false }), {
  scope: 'all',
});

const as = (identity: Identity | undefined) => jsonApiAs(svc.app, palette.prefix, identity);
const admin = () => as(CALLERS.admin);
const READ_KEY = keyCaller(['palette:read']);
const WRITE_KEY = keyCaller(['palette:write']);
const who = (caller: Identity) =>
  caller.kind === 'key' ? `key:${caller.name}` : (caller as { email: string }).email;

let count = 0;
/** A name of its own for each record (tokens' names are keys: letters, digits, - and _). */
const unique = (path: string) => `${path.slice(1)}-${++count}`;

describe.each([
  ['/tokens', 'palette.token', { category: 'color', value: '#112233' }, true],
  ['/components', 'palette.component', {}, true],
  ['/patterns', 'palette.pattern', {}, true],
  ['/standards', 'palette.standard', { guidelines: ['Be kind'] }, false],
  ['/a11y', 'palette.rule', { severity: 'minor' }, false],
] as const)('%s', (path, resource, extra, updatable) => {
  /** A record made by the owner, for team payments (the owner is in it only as its creator). */
  async function owned() {
    const name = unique(path);
    const made = await as(CALLERS.owner).post(path, { name, ...extra });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ createdBy: 'owner@example.com', team: null });
    if (updatable) await admin().put(`${path}/${name}`, { team: 'payments' });
    else {
      // No update route: made by a team mate for the team, then the owner's own.
      await admin().del(`${path}/${name}`);
      const mate = await as(CALLERS.teamMate).post(path, { name, team: 'payments', ...extra });
      expect(mate.body.data).toMatchObject({ createdBy: 'mate@example.com', team: 'payments' });
    }
    return name;
  }
  const creator = updatable ? 'owner@example.com' : 'mate@example.com';

  it('are read by every signed-in caller and read key, not anonymously', async () => {
    const name = await owned();
    for (const caller of [CALLERS.viewer, CALLERS.stranger, READ_KEY, keyCaller(['*:read'])]) {
      expect((await as(caller).get(path)).status).toBe(200);
      expect((await as(caller).get(`${path}/${name}`)).body.data.team).toBe('payments');
    }
    expect((await as(undefined).get(`${path}/${name}`)).status).toBe(401);
    const other = await as(keyCaller(['catalog:read'])).get(path);
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe(
      `key:key-catalog:read may not read ${resource}: it needs the scope palette:read`,
    );
  });

  it('are created by members and write keys, who become their creators', async () => {
    const member = await as(CALLERS.stranger).post(path, { name: unique(path), ...extra });
    expect(member.status).toBe(201);
    expect(member.body.data).toMatchObject({ createdBy: 'stranger@example.com', team: null });
    const key = await as(WRITE_KEY).post(path, { name: unique(path), ...extra });
    expect(key.body.data).toMatchObject({ createdBy: 'keyholder@example.com', team: null });
    const teamKey = keyCaller(['palette:write'], { owner: null, team: 'payments', name: 'ci' });
    const ci = await as(teamKey).post(path, { name: unique(path), ...extra });
    expect(ci.body.data).toMatchObject({ createdBy: 'key:ci', team: 'payments' });
    const anyTeam = await admin().post(path, { name: unique(path), team: 'design', ...extra });
    expect(anyTeam.body.data).toMatchObject({ createdBy: 'root@example.com', team: 'design' });
  });

  it('are not created by viewers, read keys, anonymous callers, or in a team one is not in', async () => {
    const name = unique(path);
    const viewer = await as(CALLERS.viewer).post(path, { name, ...extra });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error).toEqual({
      code: 'FORBIDDEN',
      message: `viewer@example.com may not create ${resource}: it needs the role member (or admin)`,
    });
    const key = await as(READ_KEY).post(path, { name, ...extra });
    expect(key.body.error.message).toBe(
      `key:key-palette:read may not create ${resource}: it needs the scope palette:write`,
    );
    expect((await as(undefined).post(path, { name, ...extra })).status).toBe(401);
    const team = await as(CALLERS.stranger).post(path, { name, team: 'payments', ...extra });
    expect(team.status).toBe(403);
    expect(team.body.error.message).toMatch(/^stranger@example.com may not name team payments/);
    expect((await admin().get(`${path}/${name}`)).status).toBe(404);
  });

  it('are changed and deleted by their creator, their team and admins', async () => {
    const name = await owned();
    const one = `${path}/${name}`;
    if (updatable) {
      for (const caller of [CALLERS.owner, CALLERS.teamMate, CALLERS.admin]) {
        const changed = await as(caller).put(one, { description: who(caller) });
        expect(changed.status).toBe(200);
        expect(changed.body.data.description).toBe(who(caller));
      }
      // Handed to another team by an admin: the mate no longer may, the creator still does.
      await admin().put(one, { team: 'design' });
      expect((await as(CALLERS.teamMate).put(one, { description: 'x' })).status).toBe(403);
      expect((await as(CALLERS.owner).put(one, { team: null })).body.data.team).toBeNull();
      expect((await as(CALLERS.owner).del(one)).status).toBe(200);
    } else {
      expect((await as(CALLERS.owner).del(one)).status).toBe(403);
      expect((await as(CALLERS.teamMate).del(one)).status).toBe(200);
    }
    expect((await admin().get(one)).status).toBe(404);
    const other = await owned();
    expect((await admin().del(`${path}/${other}`)).status).toBe(200);
  });

  it('refuse everyone else, naming what is missing, and stay unchanged', async () => {
    const name = await owned();
    const one = `${path}/${name}`;
    const before = (await admin().get(one)).body.data;
    const theirs = `ownership (it belongs to ${creator} and team payments)`;
    const refusals: Array<[Identity, string]> = [
      [CALLERS.stranger, theirs],
      [CALLERS.viewer, 'the role member (or admin)'],
      [WRITE_KEY, theirs],
      [READ_KEY, 'the scope palette:write'],
    ];
    for (const [caller, missing] of refusals) {
      if (updatable) {
        const put = await as(caller).put(one, { description: 'taken', tags: ['taken'] });
        expect(put.status).toBe(403);
        expect(put.body.error.message).toBe(
          `${who(caller)} may not update ${resource}: it needs ${missing}`,
        );
      }
      const del = await as(caller).del(one);
      expect(del.status).toBe(403);
      expect(del.body.error.message).toBe(
        `${who(caller)} may not delete ${resource}: it needs ${missing}`,
      );
    }
    expect((await as(undefined).del(one)).status).toBe(401);
    if (updatable) {
      const moved = await as(CALLERS.teamMate).put(one, { team: 'elsewhere' });
      expect(moved.status).toBe(403);
      expect(moved.body.error.message).toMatch(/^mate@example.com may not name team elsewhere/);
    }
    expect((await admin().get(one)).body.data).toEqual(before);
    expect((await as(CALLERS.stranger).del(`${path}/missing-one`)).status).toBe(404);
  });
});
