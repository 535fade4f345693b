import { describeIdentity, type Identity } from '@platform/core';
import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  serviceUnderTest,
  useService,
} from '@platform/testing';
import { communication } from '../src/index';
import { FAST_ENV } from './helpers';

// Channels are platform configuration: admins write them, every signed-in caller reads them.
const PASSWORD = 'the-corp-smtp-password';
const LITERAL = 'a-literal-hook-secret-0123456789';
const ENV = {
  ...FAST_ENV,
  ...AUTH_ENV,
  CHANNEL_CORP_PASS: PASSWORD,
  CHANNEL_CORP_PASS_DESTINATION: 'smtp.corp.example',
};
const CORP = {
  host: 'smtp.corp.example',
  port: 587,
  from: 'noreply@corp.example',
  user: 'mailer',
  pass: 'env:CHANNEL_CORP_PASS',
};
const { admin, owner, teamMate, stranger, viewer } = CALLERS;

const svc = useService(() => serviceUnderTest(communication, { env: ENV, jobs: false }), {
  scope: 'all',
});
const as = (identity: Identity | undefined) => jsonApiAs(svc.app, communication.prefix, identity);

beforeAll(async () => {
  const made = [
    await as(admin).post('/channels', { name: 'corp', provider: 'smtp', config: CORP }),
    await as(admin).post('/channels', {
      name: 'hook',
      provider: 'webhook',
      config: { url: 'https://hooks.example.com/in', secret: LITERAL },
    }),
  ];
  expect(made.map((r) => r.status)).toEqual([201, 201]);
});

const channel = async (name: string) => (await as(admin).get(`/channels/${name}`)).body.data;

describe('channels with authentication on', () => {
  it('are read by every signed-in caller, and never show a secret', async () => {
    for (const caller of [viewer, stranger, keyCaller(['communication:read'])]) {
      const list = await as(caller).get('/channels');
      const one = await as(caller).get('/channels/hook');
      expect([list.status, one.status]).toEqual([200, 200]);
      expect(one.body.data.config).toEqual({
        url: 'https://hooks.example.com/in',
        secret: '********',
      });
      const answers = JSON.stringify([list.body, one.body]);
      for (const secret of [PASSWORD, LITERAL]) expect(answers).not.toContain(secret);
      expect(answers).toContain('env:CHANNEL_CORP_PASS');
    }
    expect((await as(undefined).get('/channels')).status).toBe(401);
    const other = await as(keyCaller(['catalog:read'])).get('/channels');
    expect(other.body.error.message).toMatch(/it needs the scope communication:read$/);
  });

  it('are created, changed and deleted by admins only', async () => {
    const body = { name: 'alerts', provider: 'log' };
    for (const caller of [viewer, stranger, owner, teamMate]) {
      const res = await as(caller).post('/channels', body);
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({
        code: 'FORBIDDEN',
        message: `${describeIdentity(caller)} may not create communication.channel: it needs the role admin`,
      });
    }
    const writeKey = await as(keyCaller(['communication:write'])).post('/channels', body);
    expect(writeKey.body.error.message).toMatch(/it needs the scope admin$/);
    expect((await as(admin).get('/channels/alerts')).status).toBe(404);

    const adminKey = as(keyCaller(['admin'], { role: 'admin', owner: 'root@example.com' }));
    expect((await adminKey.post('/channels', body)).status).toBe(201);
    expect((await as(admin).patch('/channels/alerts', { description: 'x' })).status).toBe(200);
    expect((await as(admin).del('/channels/alerts')).status).toBe(200);
  });

  it("refuses a member disabling another team's channel, and changes nothing (issue 31)", async () => {
    const before = await channel('corp');
    for (const caller of [stranger, teamMate, keyCaller(['communication:write'])]) {
      const api = as(caller);
      expect((await api.patch('/channels/corp', { status: 'disabled' })).status).toBe(403);
      expect(
        (await api.patch('/channels/corp', { config: { ...CORP, host: 'x.example' } })).status,
      ).toBe(403);
      expect((await api.del('/channels/corp')).status).toBe(403);
    }
    expect(await channel('corp')).toEqual(before);
  });

  it("refuses a new smtp channel on another host naming the channel's password (issue 31)", async () => {
    const evil = { ...CORP, host: 'attacker.example.net' };
    // A member is refused for the route; an admin too, for the binding.
    expect(
      (await as(stranger).post('/channels', { name: 'evil', provider: 'smtp', config: evil }))
        .status,
    ).toBe(403);
    const res = await as(admin).post('/channels', { name: 'evil', provider: 'smtp', config: evil });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'BAD_REQUEST',
      message:
        'config.pass names env:CHANNEL_CORP_PASS, which may be sent only to smtp.corp.example (CHANNEL_CORP_PASS_DESTINATION), not to attacker.example.net',
    });
    expect((await as(admin).get('/channels/evil')).status).toBe(404);
    // Nor by moving the channel that names it.
    const before = await channel('corp');
    const moved = await as(admin).patch('/channels/corp', { config: evil });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toMatch(/not to attacker\.example\.net$/);
    expect(await channel('corp')).toEqual(before);
  });
});
