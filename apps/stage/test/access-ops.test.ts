import { useService } from '@platform/testing';
import { expectForbidden, stageWithAuth, type Who } from './access-helpers';

// An app's logs, secrets and schedules are its owners' (its creator, its team) and admins':
// every other caller is refused with a 403 naming what is missing, and changes nothing.
const h = useService(stageWithAuth, { scope: 'all' });

const OWNED = /it needs ownership \(it belongs to owner@example\.com and team payments\)$/;
const OWNERS: Who[] = ['owner', 'teamMate', 'admin', 'ownerWrite', 'teamKey'];
const OTHERS: Array<[Who, number, RegExp]> = [
  ['stranger', 403, OWNED],
  ['viewer', 403, OWNED],
  ['ownerCatalog', 403, /it needs the scope stage:(read|write)$/],
  ['anonymous', 401, /^Authentication required/],
];
/** Changing: a viewer is refused for its role first, a read-only key for its scope. */
const WRITERS_NOT: Array<[Who, number, RegExp]> = [
  ['stranger', 403, OWNED],
  ['viewer', 403, /may not update stage\.secret: it needs the role member \(or admin\)$/],
  ['ownerRead', 403, /it needs the scope stage:write$/],
  ['ownerCatalog', 403, /it needs the scope stage:write$/],
  ['anonymous', 401, /^Authentication required/],
];

describe('logs, secrets and schedules of an app', () => {
  it('are read by its owners only', async () => {
    const app = await h.app();
    for (const url of [
      `/apps/${app.sid}/logs`,
      `/apps/${app.sid}/secrets`,
      `/apps/${app.sid}/schedules`,
    ]) {
      for (const who of OWNERS) {
        const res = await h.as(who).get(url);
        expect([who, url, res.status]).toEqual([who, url, 200]);
      }
      for (const [who, status, message] of OTHERS) {
        const res = await h.as(who).get(url);
        expect([who, url, res.status]).toEqual([who, url, status]);
        expect(res.body.error.message).toMatch(message);
      }
    }
    expectForbidden(await h.as('stranger').get(`/apps/${app.sid}/logs`), new RegExp(`^stranger@example\\.com may not read stage\\.log: ${OWNED.source}`)); // prettier-ignore
    expectForbidden(await h.as('viewer').get(`/apps/${app.sid}/secrets`), /may not read stage\.secret: it needs ownership/); // prettier-ignore
    expectForbidden(await h.as('stranger').get(`/apps/${app.sid}/schedules`), /may not read stage\.schedule: it needs ownership/); // prettier-ignore
    // The live stream refuses before it starts.
    for (const [who, status, message] of OTHERS) {
      const res = await h.raw(who, 'GET', `/api/v1/stage/apps/${app.sid}/logs/stream`);
      expect([who, res.status]).toEqual([who, status]);
      expect(res.json().error.message).toMatch(message);
    }
  });

  it('have secrets set and deleted by its owners only, nothing changed by a refusal', async () => {
    const app = await h.app();
    const url = `/apps/${app.sid}/secrets/API_TOKEN`;
    for (const [who, status, message] of WRITERS_NOT) {
      const put = await h.as(who).put(url, { value: 'hijacked-value' });
      expect([who, put.status]).toEqual([who, status]);
      expect(put.body.error.message).toMatch(message);
      expect(JSON.stringify(put.body)).not.toContain('hijacked-value');
    }
    expect(await h.adminReads(`/apps/${app.sid}/secrets`)).toEqual([]);
    for (const who of OWNERS) expect((await h.as(who).put(url, { value: `set by ${who}` })).status).toBe(200); // prettier-ignore
    for (const [who, status] of WRITERS_NOT) expect((await h.as(who).del(url)).status).toBe(status);
    expect((await h.adminReads(`/apps/${app.sid}/secrets`)).map((s: { name: string }) => s.name)).toEqual(['API_TOKEN']); // prettier-ignore
    expect((await h.as('teamMate').del(url)).status).toBe(200);
  });

  it('have schedules set only by those who may change the app', async () => {
    const app = await h.app();
    const config = { schedules: { tick: { cron: '0 3 * * *', route: '/tick' } } };
    for (const [who, status] of OTHERS)
      expect((await h.as(who).patch(`/apps/${app.sid}`, { config })).status).toBe(status);
    expect(await h.adminReads(`/apps/${app.sid}/schedules`)).toEqual([]);
    expect((await h.as('teamMate').patch(`/apps/${app.sid}`, { config })).status).toBe(200);
    const [tick] = await h.adminReads(`/apps/${app.sid}/schedules`);
    expect(tick).toMatchObject({ name: 'tick', cron: '0 3 * * *', route: '/tick', runs: [] });
  });
});
