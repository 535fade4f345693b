import { useService } from '@platform/testing';
import { stageUnderTest } from './helpers';

const s = useService(stageUnderTest, { scope: 'all' });

const call = async (name: string, args?: object) => {
  const res = await s.svc.app.inject({
    method: 'POST',
    url: `/api/v1/stage/functions/${name}`,
    payload: args === undefined ? {} : { args },
  });
  return { status: res.statusCode, body: res.body, json: () => res.json(), headers: res.headers };
};
const data = async (name: string, args?: object) => {
  const res = await call(name, args);
  expect([name, res.status]).toEqual([name, 200]);
  return res.json().data;
};

describe('stage: functions', () => {
  it('answers what the matching routes answer, for every function', async () => {
    const created = await call('createSession');
    expect(created.status).toBe(201);
    const sessionId = created.json().data.id;
    expect(
      await data('writeFile', { sessionId, path: '/app/main.ts', content: 'console.log(1)' }),
    ).toEqual({ count: 1, files: [{ path: '/app/main.ts', version: 1, size: 14 }] });
    await data('writeFile', { sessionId, path: '/app/main.ts', content: 'console.log(2)' });
    const read = await call('readFile', { sessionId, path: '/app/main.ts', version: 1 });
    expect([read.status, read.body, read.headers['content-type']]).toEqual([
      200,
      'console.log(1)',
      'text/typescript; charset=utf-8',
    ]);
    expect(await data('getAllFiles', { sessionId })).toEqual([
      { path: '/app/main.ts', version: 2, size: 14, content: 'console.log(2)' },
    ]);
    expect(await data('triggerRender', { sessionId, entry: '/app/main.ts' })).toEqual({
      entry: '/app/main.ts',
      version: 1,
    });
    expect(await data('getRenderState', { sessionId })).toMatchObject({
      entry: '/app/main.ts',
      version: 1,
      error: null,
    });
    expect((await data('getStatus', { sessionId })).files).toEqual([
      { path: '/app/main.ts', version: 2, size: 14 },
    ]);
    const snapshot = (await call('createSnapshot', { sessionId, label: 'first' })).json().data;
    expect(snapshot).toMatchObject({ label: 'first', fileCount: 1 });
    expect((await data('getSnapshots', { sessionId })).map((x: { id: string }) => x.id)).toEqual([
      snapshot.id,
    ]);
    expect(
      (await data('getFileHistory', { sessionId, path: '/app/main.ts' })).map(
        (v: { version: number }) => v.version,
      ),
    ).toEqual([2, 1]);
    const app = (await s.api.post('/apps', { sessionId, name: 'fn-app' })).body.data;
    expect(await data('listApps', { sessionId })).toEqual([app]);
    expect(await data('listApps')).toEqual([app]);
    expect(await data('getApp', { sid: app.sid })).toEqual(app);
    expect(await data('getAppBySession', { sessionId })).toEqual(app);
    expect(await data('updateApp', { sid: app.sid, title: 'Via function' })).toMatchObject({
      sid: app.sid,
      title: 'Via function',
    });
    expect(await data('setGoogleScopes', { sessionId, scopes: ['openid'] })).toEqual({
      scopes: ['openid'],
    });
    expect(await data('getGoogleScopes', { sessionId })).toEqual({ scopes: ['openid'] });
  });

  it("passes the routes' errors through and refuses unknown functions and missing arguments", async () => {
    const missing = await call('getStatus', { sessionId: 'nope1234' });
    expect([missing.status, missing.json().error]).toEqual([
      404,
      { code: 'NOT_FOUND', message: 'Session not found: nope1234' },
    ]);
    const noArg = await call('writeFile', { sessionId: 'x', path: '/a' });
    expect([noArg.status, noArg.json().error.message]).toEqual([
      400,
      'writeFile needs args.content',
    ]);
    const unknown = await call('rmRf', {});
    expect(unknown.status).toBe(400);
    expect(unknown.json().error.message).toMatch(/^name must be/);
    const badPath = await call('readFile', {
      sessionId: (await call('createSession')).json().data.id,
      path: '/../etc/passwd',
    });
    expect([badPath.status, badPath.json().error.message]).toEqual([
      400,
      'args.path "/../etc/passwd" must not contain ..',
    ]);
    const badBody = await call('updateApp', { sid: 'nope', bogus: 1 });
    expect([badBody.status, badBody.json().error.message]).toEqual([
      400,
      'body has an unknown field: bogus',
    ]);
  });

  it('are listed in the OpenAPI document', async () => {
    const swagger = (
      s.svc.app as unknown as {
        swagger(): {
          paths: Record<string, Record<string, { operationId: string; description: string }>>;
        };
      }
    ).swagger();
    const op = swagger.paths['/api/v1/stage/functions/{name}'].post;
    expect(op.operationId).toBe('stage.callFunction');
    for (const name of [
      'createSession',
      'writeFile',
      'readFile',
      'getAllFiles',
      'triggerRender',
      'getRenderState',
      'getStatus',
      'createSnapshot',
      'getSnapshots',
      'getFileHistory',
      'listApps',
      'getApp',
      'getAppBySession',
      'updateApp',
      'setGoogleScopes',
      'getGoogleScopes',
    ])
      expect(op.description).toContain(name);
  });
});
