import { sleep, useService } from '@platform/testing';
import { stageUnderTest } from './helpers';

const s = useService(
  () =>
    stageUnderTest({
      STAGE_MAX_FILE_BYTES: '2000',
      STAGE_MAX_FILES: '5',
      STAGE_MAX_SESSION_BYTES: '5000',
    }),
  { scope: 'all' },
);

const EPOCH = expect.any(Number);
const status = async (id: string) => (await s.api.get(`/sessions/${id}/status`)).body.data;

describe('sessions', () => {
  it('creates an empty session with an 8-character id and epoch-millisecond times', async () => {
    const before = Date.now();
    const res = await s.api.post('/sessions');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: { id: expect.stringMatching(/^[A-Za-z0-9]{8}$/), createdAt: EPOCH },
    });
    expect(res.body.data.createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(await status(res.body.data.id)).toEqual({
      // The preview's own origin: the session id in hex under STAGE_PREVIEW_DOMAIN.
      origin: `http://${Buffer.from(res.body.data.id).toString('hex')}.preview.localhost`,
      session: {
        createdAt: res.body.data.createdAt,
        lastAccessedAt: EPOCH,
        appSid: null,
        createdBy: null,
        team: null,
        collaborators: [],
      },
      render: { entry: null, version: 0, error: null, renderedAt: null },
      files: [],
    });
  });

  it('moves lastAccessedAt on every use', async () => {
    const id = await s.session();
    const first = (await status(id)).session.lastAccessedAt;
    await sleep(15);
    await s.page(`/api/v1/stage/sessions/${id}/google-scopes`);
    const second = (await status(id)).session.lastAccessedAt;
    expect(second).toBeGreaterThan(first);
  });

  it('answers NOT_FOUND naming an unknown session, on every route', async () => {
    for (const [method, url] of [
      ['GET', '/sessions/nope1234/status'],
      ['POST', '/sessions/nope1234/push'],
      ['GET', '/sessions/nope1234/files/app/a.ts'],
      ['POST', '/sessions/nope1234/render'],
      ['GET', '/sessions/nope1234/history?path=/a'],
      ['GET', '/sessions/nope1234/snapshots'],
    ] as const) {
      const body =
        method === 'POST'
          ? url.endsWith('push')
            ? { files: { '/a': 'x' } }
            : url.endsWith('render')
              ? { entry: '/a.ts' }
              : {}
          : undefined;
      const res = await s.svc.app.inject({
        method,
        url: `/api/v1/stage${url}`,
        ...(body ? { payload: body } : {}),
      });
      expect([url, res.statusCode, res.json()]).toEqual([
        url,
        404,
        { success: false, error: { code: 'NOT_FOUND', message: 'Session not found: nope1234' } },
      ]);
    }
  });
});

describe('files', () => {
  it("writes files, bumping each path's version on every write, and reads them back with their type", async () => {
    const id = await s.session();
    expect(
      await s.push(id, { '/app/main.ts': 'export const a = 1;', '/app/index.html': '<p>hi</p>' }),
    ).toEqual({
      count: 2,
      files: [
        { path: '/app/main.ts', version: 1, size: 19 },
        { path: '/app/index.html', version: 1, size: 9 },
      ],
    });
    expect((await s.push(id, { '/app/main.ts': 'export const a = 2;' })).files).toEqual([
      { path: '/app/main.ts', version: 2, size: 19 },
    ]);
    const read = await s.page(`/api/v1/stage/sessions/${id}/files/app/main.ts`);
    expect(read).toMatchObject({ status: 200, body: 'export const a = 2;' });
    expect(read.headers['content-type']).toBe('text/typescript; charset=utf-8');
    expect(read.headers['x-file-version']).toBe('2');
    const old = await s.page(`/api/v1/stage/sessions/${id}/files/app/main.ts?version=1`);
    expect(old.body).toBe('export const a = 1;');
    // An HTML file read through the API never runs as a page of the platform.
    const html = await s.page(`/api/v1/stage/sessions/${id}/files/app/index.html`);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect((await status(id)).files).toEqual([
      { path: '/app/index.html', version: 1, size: 9 },
      { path: '/app/main.ts', version: 2, size: 19 },
    ]);
  });

  it('counts sizes in bytes of UTF-8 and keeps any text as written', async () => {
    const id = await s.session();
    const text = 'héllo ✓ 😀\n\u0001 tab\t';
    expect((await s.push(id, { '/a.txt': text })).files[0].size).toBe(Buffer.byteLength(text));
    expect((await s.page(`/api/v1/stage/sessions/${id}/files/a.txt`)).body).toBe(text);
  });

  it('deletes a file as a version of its own; writing it again goes on counting', async () => {
    const id = await s.session();
    await s.push(id, { '/a.ts': '1' });
    const del = await s.api.del(`/sessions/${id}/files/a.ts`);
    expect(del).toEqual({
      status: 200,
      body: { success: true, data: { path: '/a.ts', version: 2, deleted: true } },
    });
    expect((await s.api.get(`/sessions/${id}/files/a.ts`)).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'File not found: /a.ts',
    });
    expect((await s.api.del(`/sessions/${id}/files/a.ts`)).status).toBe(404);
    expect((await status(id)).files).toEqual([]);
    expect((await s.push(id, { '/a.ts': '3' })).files[0].version).toBe(3);
    const history = (await s.api.get(`/sessions/${id}/history?path=/a.ts`)).body.data;
    expect(history).toEqual([
      {
        version: 3,
        size: 1,
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        deleted: false,
        createdAt: EPOCH,
      },
      { version: 2, size: 0, hash: null, deleted: true, createdAt: EPOCH },
      { version: 1, size: 1, hash: history[2].hash, deleted: false, createdAt: EPOCH },
    ]);
    expect((await s.api.get(`/sessions/${id}/files/a.ts?version=2`)).body.error.message).toBe(
      'File not found: /a.ts version 2 (deleted)',
    );
    expect((await s.api.get(`/sessions/${id}/files/a.ts?version=9`)).body.error.message).toBe(
      'File not found: /a.ts version 9',
    );
    expect(
      (await s.api.get(`/sessions/${id}/history?path=/a.ts&limit=1&offset=1`)).body.data.map(
        (v: { version: number }) => v.version,
      ),
    ).toEqual([2]);
  });

  it.each([
    ['relative', 'app/a.ts', 'must be absolute (start with /)'],
    ['with ..', '/app/../etc/passwd', 'must not contain ..'],
    ['not normalised', '/app//a.ts', 'must be normalised (no ., // or trailing /)'],
    ['with .', '/app/./a.ts', 'must be normalised (no ., // or trailing /)'],
    ['a folder', '/app/', 'must be normalised (no ., // or trailing /)'],
    ['the root', '/', 'must be normalised (no ., // or trailing /)'],
    ['with NUL', '/a\u0000.ts', 'must not contain NUL or other control characters'],
  ])(
    'refuses a %s path, naming it, and writes nothing of the push',
    async (_what, path, problem) => {
      const id = await s.session();
      const res = await s.api.post(`/sessions/${id}/push`, {
        files: { '/ok.ts': 'fine', [path]: 'x' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: 'BAD_REQUEST',
        message: `files path ${JSON.stringify(path)} ${problem}`,
      });
      expect((await status(id)).files).toEqual([]);
    },
  );

  it('refuses a path longer than 512 characters and bodies that are not a files map', async () => {
    const id = await s.session();
    const long = `/${'a'.repeat(512)}`;
    expect(
      (await s.api.post(`/sessions/${id}/push`, { files: { [long]: 'x' } })).body.error.message,
    ).toBe(`files path "/${'a'.repeat(76)}..." is longer than 512 characters`);
    for (const [body, message] of [
      [{}, 'files is required'],
      [{ files: {} }, 'files must name at least one file'],
      [{ files: { '/a': 5 } }, 'files./a must be a string'],
      [
        { files: { '/a': 'nul \u0000' } },
        'files /a: content must not contain NUL characters (U+0000)',
      ],
      [{ files: { '/a': 'x' }, extra: 1 }, 'body has an unknown field: extra'],
    ] as const) {
      const res = await s.api.post(`/sessions/${id}/push`, body);
      expect([res.status, res.body.error.code]).toEqual([400, 'BAD_REQUEST']);
      expect(res.body.error.message).toBe(message);
    }
    expect((await status(id)).files).toEqual([]);
  });

  it('answers 413 for a file or a session too large and 400 for too many files, saying which, all or nothing', async () => {
    const id = await s.session();
    await s.push(id, { '/keep.txt': 'k' });
    const big = await s.api.post(`/sessions/${id}/push`, {
      files: { '/small.txt': 's', '/big.txt': 'x'.repeat(2001) },
    });
    expect(big.status).toBe(413);
    expect(big.body.error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'File /big.txt is 2001 bytes; a file may have at most 2000 (STAGE_MAX_FILE_BYTES)',
    });
    const many = await s.api.post(`/sessions/${id}/push`, {
      files: Object.fromEntries(['/1', '/2', '/3', '/4', '/5'].map((p) => [p, 'x'])),
    });
    expect(many.status).toBe(400);
    expect(many.body.error.message).toBe(
      'The session would hold 6 files; it may hold at most 5 (STAGE_MAX_FILES)',
    );
    const full = await s.api.post(`/sessions/${id}/push`, {
      files: { '/a': 'x'.repeat(2000), '/b': 'x'.repeat(2000), '/c': 'x'.repeat(1000) },
    });
    expect(full.status).toBe(413);
    expect(full.body.error.message).toBe(
      "The session's files would add up to 5001 bytes; they may have at most 5000 (STAGE_MAX_SESSION_BYTES)",
    );
    expect((await status(id)).files).toEqual([{ path: '/keep.txt', version: 1, size: 1 }]);
    // A deleted file frees its place.
    await s.push(id, { '/1': 'x', '/2': 'x', '/3': 'x', '/4': 'x' });
    expect((await s.api.del(`/sessions/${id}/files/4`)).status).toBe(200);
    expect((await s.api.post(`/sessions/${id}/push`, { files: { '/5': 'x' } })).status).toBe(200);
  });

  it('never loses or repeats a version under concurrent pushes to one session', async () => {
    const id = await s.session();
    const pushes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.api.post(`/sessions/${id}/push`, {
          files: { '/shared.ts': `v${i}`, [`/own${i % 3}.ts`]: `${i}` },
        }),
      ),
    );
    expect(pushes.every((p) => p.status === 200)).toBe(true);
    const versions = pushes
      .map((p) => p.body.data.files.find((f: { path: string }) => f.path === '/shared.ts').version)
      .sort((a: number, b: number) => a - b);
    expect(versions).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const history = (await s.api.get(`/sessions/${id}/history?path=/shared.ts`)).body.data;
    expect(history.map((v: { version: number }) => v.version)).toEqual(versions.slice().reverse());
    const own = (await status(id)).files.filter((f: { path: string }) => f.path.startsWith('/own'));
    expect(
      own.map((f: { version: number }) => f.version).reduce((a: number, b: number) => a + b),
    ).toBe(20);
  });

  it('lists the files with their contents on request', async () => {
    const id = await s.session();
    await s.push(id, { '/b.ts': 'B', '/a.ts': 'A' });
    expect((await s.api.get(`/sessions/${id}/files`)).body.data).toEqual([
      { path: '/a.ts', version: 1, size: 1 },
      { path: '/b.ts', version: 1, size: 1 },
    ]);
    expect((await s.api.get(`/sessions/${id}/files?content=true`)).body.data).toEqual([
      { path: '/a.ts', version: 1, size: 1, content: 'A' },
      { path: '/b.ts', version: 1, size: 1, content: 'B' },
    ]);
  });
});

describe('google scopes', () => {
  it('stores scope URLs per session, without repeats, and validates them', async () => {
    const id = await s.session();
    expect((await s.api.get(`/sessions/${id}/google-scopes`)).body.data).toEqual({ scopes: [] });
    const scopes = [
      'https://www.googleapis.com/auth/spreadsheets',
      'openid',
      'https://www.googleapis.com/auth/spreadsheets',
    ];
    expect((await s.api.put(`/sessions/${id}/google-scopes`, { scopes })).body.data).toEqual({
      scopes: scopes.slice(0, 2),
    });
    expect((await s.api.get(`/sessions/${id}/google-scopes`)).body.data).toEqual({
      scopes: scopes.slice(0, 2),
    });
    for (const bad of [
      'http://www.googleapis.com/auth/x',
      'spreadsheets',
      'https://',
      'javascript:alert(1)',
    ]) {
      const res = await s.api.put(`/sessions/${id}/google-scopes`, { scopes: [bad] });
      expect([bad, res.status, res.body.error.code]).toEqual([bad, 400, 'BAD_REQUEST']);
    }
    expect((await s.api.put(`/sessions/${id}/google-scopes`, { scopes: 'openid' })).status).toBe(
      400,
    );
    expect((await s.api.get(`/sessions/${id}/google-scopes`)).body.data.scopes).toHaveLength(2);
  });
});
