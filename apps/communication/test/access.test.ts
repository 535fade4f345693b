import { describeIdentity, type Identity } from '@platform/core';
import {
  AUTH_ENV,
  CALLERS,
  deadUrl,
  jsonApiAs,
  keyCaller,
  person,
  serviceUnderTest,
  type JsonApi,
  type ServiceUnderTest,
} from '@platform/testing';
import { communication } from '../src/index';
import { FAST_ENV } from './helpers';
import { fakeStage } from './stage';

// An app's registrations, sends and deliveries belong to the app's owners, as stage says.
const OWN = 'Own12345'; // published by the owner
const TEAM = 'Team1234'; // published by someone else in team payments
const NOBODY = 'Gone1234'; // published before ownership: no one's
const NOT_AN_APP = 'not-an-app'; // stage does not know it
const APPS = [
  { sid: OWN, name: 'own-app', createdBy: 'owner@example.com', team: null },
  { sid: TEAM, name: 'team-app', createdBy: 'someone@example.com', team: 'payments' },
  { sid: NOBODY, name: 'old-app', createdBy: null, team: null },
];
const { admin, owner, teamMate, stranger, viewer } = CALLERS;
const STAGE = { kind: 'service', name: 'stage' } as const;

let stage: Awaited<ReturnType<typeof fakeStage>>;
let svc: ServiceUnderTest;
const deliveryOf: Record<string, string> = {};
const as = (identity: Identity | undefined) => jsonApiAs(svc.app, communication.prefix, identity);
const stageCalls = () => stage.seen.filter((s) => s.startsWith('GET /api/v1/stage/apps/')).length;
const send = (app: string) => ({ channelId: 'log', text: `the message text of ${app}` });

beforeAll(async () => {
  stage = await fakeStage(APPS);
  svc = await serviceUnderTest(communication, {
    env: { ...FAST_ENV, ...AUTH_ENV, PLATFORM_URL: stage.url },
    jobs: false,
  });
  for (const name of ['log', 'log2']) await as(admin).post('/channels', { name, provider: 'log' });
  for (const app of [OWN, TEAM, NOBODY, NOT_AN_APP]) {
    await as(admin).post(`/apps/${app}/channels`, { channelId: 'log' });
    deliveryOf[app] = (await as(admin).post(`/apps/${app}/send`, send(app))).body.data.delivery.id;
  }
});
afterAll(async () => {
  await svc.close();
  await stage.close();
});

/** Every app route, called for `app`. */
const routes = (app: string): Array<(api: JsonApi) => Promise<{ status: number }>> => [
  (api) => api.get(`/apps/${app}/channels`),
  (api) => api.get(`/apps/${app}/channels/log`),
  (api) => api.patch(`/apps/${app}/channels/log`, { metadata: { touched: true } }),
  (api) => api.post(`/apps/${app}/channels`, { channelId: 'log2' }),
  (api) => api.del(`/apps/${app}/channels/log2`),
  (api) => api.post(`/apps/${app}/send`, send(app)),
  (api) => api.get(`/apps/${app}/deliveries`),
  (api) => api.get(`/apps/${app}/deliveries/${deliveryOf[app]}`),
];

async function statuses(identity: Identity | undefined, app: string) {
  const got: number[] = [];
  for (const route of routes(app)) got.push((await route(as(identity))).status);
  return got;
}

const ALLOWED = [200, 200, 200, 201, 200, 202, 200, 200];

describe("an app's registrations, sends and deliveries", () => {
  it('are its owners’: its creator, its team, admins and the platform’s services', async () => {
    expect(await statuses(owner, OWN)).toEqual(ALLOWED);
    expect(await statuses(teamMate, TEAM)).toEqual(ALLOWED);
    for (const app of [OWN, TEAM, NOBODY, NOT_AN_APP]) {
      expect(await statuses(admin, app)).toEqual(ALLOWED);
      expect(await statuses(STAGE, app)).toEqual(ALLOWED);
    }
  });

  it('are refused to everyone else, naming the resource and the owners', async () => {
    for (const [caller, app] of [
      [stranger, OWN],
      [teamMate, OWN],
      [owner, TEAM],
      [viewer, TEAM],
    ] as const) {
      expect(await statuses(caller, app)).toEqual(Array(8).fill(403));
      const res = await as(caller).get(`/apps/${app}/deliveries`);
      const owners = app === OWN ? 'owner@example.com' : 'someone@example.com and team payments';
      expect(res.body.error).toEqual({
        code: 'FORBIDDEN',
        message: `${describeIdentity(caller)} may not read communication.delivery: it needs ownership (it belongs to ${owners})`,
      });
    }
    expect(await statuses(undefined, OWN)).toEqual(Array(8).fill(401));
  });

  it("does not show another team's message text (issue 31)", async () => {
    const id = deliveryOf[TEAM];
    for (const caller of [stranger, owner, viewer, keyCaller(['*:read'])]) {
      const one = await as(caller).get(`/apps/${TEAM}/deliveries/${id}`);
      expect(one.status).toBe(403);
      expect(JSON.stringify(one.body)).not.toContain('the message text');
      expect((await as(caller).get(`/apps/${TEAM}/deliveries`)).status).toBe(403);
    }
    const mine = await as(teamMate).get(`/apps/${TEAM}/deliveries/${id}`);
    expect(mine.body.data.text).toBe(`the message text of ${TEAM}`);
  });

  it('changes nothing when a write is refused', async () => {
    const before = async () => ({
      registrations: (await as(admin).get(`/apps/${OWN}/channels`)).body.data,
      deliveries: (await as(admin).get(`/apps/${OWN}/deliveries`)).body.data.length,
    });
    const was = await before();
    const api = as(stranger);
    expect((await api.patch(`/apps/${OWN}/channels/log`, { enabled: false })).status).toBe(403);
    expect((await api.del(`/apps/${OWN}/channels/log`)).status).toBe(403);
    expect((await api.post(`/apps/${OWN}/channels`, { channelId: 'log2' })).status).toBe(403);
    expect((await api.post(`/apps/${OWN}/send`, send(OWN))).status).toBe(403);
    expect(await before()).toEqual(was);
  });

  it('lets a viewer of the team read, never send', async () => {
    const seer = person('seer@example.com', 'viewer', ['payments']);
    expect((await as(seer).get(`/apps/${TEAM}/deliveries`)).status).toBe(200);
    const sent = await as(seer).post(`/apps/${TEAM}/send`, send(TEAM));
    expect(sent.status).toBe(403);
    expect(sent.body.error.message).toBe(
      'seer@example.com may not create communication.delivery: it needs the role member (or admin)',
    );
  });

  it('lets keys do what their scopes and their owner allow', async () => {
    const reader = as(keyCaller(['communication:read'], { owner: 'owner@example.com' }));
    expect((await reader.get(`/apps/${OWN}/deliveries`)).status).toBe(200);
    const refused = await reader.post(`/apps/${OWN}/send`, send(OWN));
    expect(refused.body.error.message).toMatch(/it needs the scope communication:write$/);
    const writer = as(keyCaller(['communication:write'], { owner: 'owner@example.com' }));
    expect((await writer.post(`/apps/${OWN}/send`, send(OWN))).status).toBe(202);
    expect((await writer.post(`/apps/${TEAM}/send`, send(TEAM))).status).toBe(403);
    const other = await as(keyCaller(['pulse:ingest'], { owner: 'owner@example.com' })).get(
      `/apps/${OWN}/deliveries`,
    );
    expect(other.body.error.message).toMatch(/it needs the scope communication:read$/);
    const bot = as(
      keyCaller(['communication:write'], { owner: null, team: 'payments', name: 'payments-bot' }),
    );
    expect((await bot.post(`/apps/${TEAM}/send`, send(TEAM))).status).toBe(202);
    expect((await bot.post(`/apps/${OWN}/send`, send(OWN))).status).toBe(403);
  });

  it('keeps apps stage does not attribute for admins: no owner, unknown, or named not by sid', async () => {
    for (const app of [NOBODY, NOT_AN_APP, 'own-app', 'OWN12345']) {
      const res = await as(owner).get(`/apps/${app}/deliveries`);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/it needs the role admin \(it belongs to no one\)$/);
    }
  });

  it('asks stage once per request, and only when the decision needs it', async () => {
    const count = async (identity: Identity | undefined, expected: number) => {
      const before = stageCalls();
      await as(identity).get(`/apps/${OWN}/deliveries/${deliveryOf[OWN]}`);
      expect(stageCalls() - before).toBe(expected);
    };
    await count(owner, 1);
    await count(stranger, 1);
    await count(admin, 0);
    await count(STAGE, 0);
    await count(undefined, 0);
  });

  it('answers 400, not 403, for an app id the schema refuses', async () => {
    const res = await as(stranger).get('/apps/-bad/deliveries');
    expect(res.status).toBe(400);
  });
});

describe('when stage cannot say', () => {
  it.each(['unreachable', 'failing'])('an app belongs to no one when stage is %s', async (how) => {
    const failing = how === 'failing' ? await fakeStage(APPS, { status: 500 }) : undefined;
    const other = await serviceUnderTest(communication, {
      env: { ...FAST_ENV, ...AUTH_ENV, PLATFORM_URL: failing?.url ?? (await deadUrl()) },
      jobs: false,
    });
    try {
      const call = (identity: Identity) =>
        jsonApiAs(other.app, communication.prefix, identity).get(`/apps/${OWN}/channels`);
      const res = await call(owner);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/\(it belongs to no one\)$/);
      expect((await call(admin)).status).toBe(200);
    } finally {
      await other.close();
      await failing?.close();
    }
  });
});
