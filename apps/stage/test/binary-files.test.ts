import { createHash } from 'node:crypto';
import { useService } from '@platform/testing';
import { contentType } from '../src/domain/paths';
import { png, ttf } from './binary-fixtures';
import { stageUnderTest } from './helpers';

// Binary files (issue 32): pushed base64, stored as bytes, read back byte for byte on every read
// path, kept by snapshots and studio copies; bad base64 and oversize refused, nothing changed.

const s = useService(stageUnderTest, { scope: 'all' });

const LOGO = png(64, 64, true);
const FONT = ttf();
const base64 = (bytes: Buffer) => ({ content: bytes.toString('base64'), encoding: 'base64' });
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A raw GET under the stage API: status, headers and the bytes. */
async function raw(url: string) {
  const res = await s.svc.app.inject({ method: 'GET', url: `/api/v1/stage${url}` });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

const call = (name: string, args: Record<string, unknown>) =>
  s.svc.app.inject({ method: 'POST', url: `/api/v1/stage/functions/${name}`, payload: { args } });

describe('binary files', () => {
  it('takes a PNG and a font in base64 beside text, and gives the bytes back on every read path', async () => {
    const id = await s.session();
    const pushed = await s.api.post(`/sessions/${id}/push`, {
      files: {
        '/app/logo.png': base64(LOGO),
        '/app/fonts/StageTest.ttf': base64(FONT),
        '/app/main.ts': 'export const x = 1;\n',
      },
    });
    expect(pushed.body).toEqual({
      success: true,
      data: {
        count: 3,
        files: [
          { path: '/app/logo.png', version: 1, size: LOGO.length, binary: true },
          { path: '/app/fonts/StageTest.ttf', version: 1, size: FONT.length, binary: true },
          { path: '/app/main.ts', version: 1, size: 20 },
        ],
      },
    });
    expect(LOGO.length).toBeGreaterThan(4096);

    // The file itself: the bytes, with the type of its extension, inert.
    for (const [path, bytes, type] of [
      ['app/logo.png', LOGO, 'image/png'],
      ['app/fonts/StageTest.ttf', FONT, 'font/ttf'],
    ] as const) {
      const read = await raw(`/sessions/${id}/files/${path}`);
      expect([read.status, read.headers['content-type'], read.headers['x-file-version']]).toEqual([200, type, '1']); // prettier-ignore
      expect(read.headers['x-content-type-options']).toBe('nosniff');
      expect(read.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(read.bytes.equals(bytes)).toBe(true);
      expect((await raw(`/sessions/${id}/files/${path}?version=1`)).bytes.equals(bytes)).toBe(true);
      const fn = await call('readFile', { sessionId: id, path: `/${path}` });
      expect([fn.statusCode, fn.headers['content-type']]).toEqual([200, type]);
      expect(fn.rawPayload.equals(bytes)).toBe(true);
    }

    // Listings and the status mark them and count their bytes; JSON carries them in base64.
    const entries = [
      { path: '/app/fonts/StageTest.ttf', version: 1, size: FONT.length, binary: true },
      { path: '/app/logo.png', version: 1, size: LOGO.length, binary: true },
      { path: '/app/main.ts', version: 1, size: 20 },
    ];
    expect((await s.api.get(`/sessions/${id}/files`)).body.data).toEqual(entries);
    expect((await s.api.get(`/sessions/${id}/status`)).body.data.files).toEqual(entries);
    const withContent = [
      { ...entries[0], ...base64(FONT) },
      { ...entries[1], ...base64(LOGO) },
      { ...entries[2], content: 'export const x = 1;\n' },
    ];
    expect((await s.api.get(`/sessions/${id}/files?content=true`)).body.data).toEqual(withContent);
    expect((await call('getAllFiles', { sessionId: id })).json().data).toEqual(withContent);
    const history = await s.api.get(`/sessions/${id}/history?path=/app/logo.png`);
    expect(history.body.data).toEqual([
      expect.objectContaining({ version: 1, size: LOGO.length, hash: sha256(LOGO) }),
    ]);

    // writeFile of the stage: functions takes an encoding too.
    const small = png(2, 2);
    const written = await call('writeFile', {
      sessionId: id,
      path: '/app/logo.png',
      ...base64(small),
    });
    expect(written.json().data.files).toEqual([
      { path: '/app/logo.png', version: 2, size: small.length, binary: true },
    ]);
    expect((await raw(`/sessions/${id}/files/app/logo.png`)).bytes.equals(small)).toBe(true);
    expect((await raw(`/sessions/${id}/files/app/logo.png?version=1`)).bytes.equals(LOGO)).toBe(true); // prettier-ignore
  });

  it('keeps text text: UTF-8 pushed in base64 or as { content, encoding: utf8 } is a text file', async () => {
    const id = await s.session();
    const res = await s.api.post(`/sessions/${id}/push`, {
      files: {
        '/a.svg': base64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
        '/b.txt': { content: 'café', encoding: 'utf8' },
        '/c.txt': { content: 'plain' },
        '/d.bin': base64(Buffer.from([0x63, 0x61, 0x66, 0xe9])), // Latin-1: not UTF-8
        '/e.bin': base64(Buffer.from('nul\u0000inside')),
      },
    });
    expect(res.body.data.files).toEqual([
      { path: '/a.svg', version: 1, size: 41 },
      { path: '/b.txt', version: 1, size: 5 },
      { path: '/c.txt', version: 1, size: 5 },
      { path: '/d.bin', version: 1, size: 4, binary: true },
      { path: '/e.bin', version: 1, size: 10, binary: true },
    ]);
    const files = (await s.api.get(`/sessions/${id}/files?content=true`)).body.data;
    expect(files.map((f: { content: string }) => f.content)).toEqual([
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'café',
      'plain',
      'Y2Fm6Q==',
      'bnVsAGluc2lkZQ==',
    ]);
    const svg = await raw(`/sessions/${id}/files/a.svg`);
    expect(svg.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    const bin = await raw(`/sessions/${id}/files/d.bin`);
    expect([bin.headers['content-type'], [...bin.bytes]]).toEqual([
      'application/octet-stream',
      [0x63, 0x61, 0x66, 0xe9],
    ]);
    // The same bytes as text and as base64 are one content (one hash, one form).
    const again = await s.api.post(`/sessions/${id}/push`, { files: { '/f.txt': 'plain' } });
    expect(again.body.data.files).toEqual([{ path: '/f.txt', version: 1, size: 5 }]);
  });

  it('refuses bad base64 and a wrong file object, naming the path, and changes nothing', async () => {
    const id = await s.session();
    await s.api.post(`/sessions/${id}/push`, { files: { '/app/logo.png': base64(LOGO) } });
    const before = (await s.api.get(`/sessions/${id}/files?content=true`)).body.data;
    const good = { '/app/ok.txt': 'fine' };
    for (const [file, message] of [
      [
        { content: 'iVBOR-w0', encoding: 'base64' },
        'files /app/x.png: content is not valid base64 ("-" at character 6: only A-Z, a-z, 0-9, + and / (= at the end))',
      ],
      [
        { content: 'iVBORw0', encoding: 'base64' },
        'files /app/x.png: content is not valid base64 (7 characters: base64 comes in groups of 4, padded with =)',
      ],
      [
        { content: 'iVBO=Rw0', encoding: 'base64' },
        'files /app/x.png: content is not valid base64 ("=" at character 5: only A-Z, a-z, 0-9, + and / (= at the end))',
      ],
      [
        { content: 'aGk=', encoding: 'hex' },
        'files./app/x.png.encoding must be one of: utf8, base64',
      ],
      [{ encoding: 'base64' }, 'files./app/x.png.content is required'],
      [{ content: 'aGk=', extra: 1 }, 'files./app/x.png has an unknown field: extra'],
      [5, 'files./app/x.png must be a string'],
      [
        { content: 'a\u0000b' },
        'files /app/x.png: content must not contain NUL characters (U+0000)',
      ],
    ] as const) {
      const res = await s.api.post(`/sessions/${id}/push`, {
        files: { ...good, '/app/x.png': file },
      });
      expect([res.status, res.body.error?.message]).toEqual([400, message]);
    }
    // Whitespace and line breaks in base64 (as `base64` wraps it) are fine.
    const wrapped = LOGO.toString('base64').replace(/.{76}/g, '$&\n');
    const res = await s.api.post(`/sessions/${id}/push`, {
      files: { '/app/wrapped.png': { content: wrapped, encoding: 'base64' } },
    });
    expect(res.body.data.files).toEqual([
      { path: '/app/wrapped.png', version: 1, size: LOGO.length, binary: true },
    ]);
    const after = (await s.api.get(`/sessions/${id}/files?content=true`)).body.data;
    expect(after.filter((f: { path: string }) => f.path !== '/app/wrapped.png')).toEqual(before);
  });

  it('counts the decoded bytes against STAGE_MAX_FILE_BYTES and STAGE_MAX_SESSION_BYTES', async () => {
    // The base64 of the logo is longer than the limit; its bytes are not.
    const limited = await stageUnderTest({
      STAGE_MAX_FILE_BYTES: String(LOGO.length),
      STAGE_MAX_SESSION_BYTES: String(LOGO.length + 100),
    });
    try {
      const id = await limited.session();
      expect(LOGO.toString('base64').length).toBeGreaterThan(LOGO.length);
      const ok = await limited.api.post(`/sessions/${id}/push`, {
        files: { '/app/logo.png': base64(LOGO) },
      });
      expect(ok.status).toBe(200);
      const big = Buffer.concat([LOGO, Buffer.from([0])]);
      const tooBig = await limited.api.post(`/sessions/${id}/push`, {
        files: { '/app/big.png': base64(big), '/app/a.txt': 'a' },
      });
      expect([tooBig.status, tooBig.body.error]).toEqual([
        413,
        {
          code: 'PAYLOAD_TOO_LARGE',
          message: `File /app/big.png is ${big.length} bytes; a file may have at most ${LOGO.length} (STAGE_MAX_FILE_BYTES)`,
        },
      ]);
      const tooMuch = await limited.api.post(`/sessions/${id}/push`, {
        files: { '/app/font.ttf': base64(FONT) },
      });
      expect([tooMuch.status, tooMuch.body.error.message]).toEqual([
        413,
        `The session's files would add up to ${LOGO.length + FONT.length} bytes; they may have at most ${LOGO.length + 100} (STAGE_MAX_SESSION_BYTES)`,
      ]);
      const files = (await limited.api.get(`/sessions/${id}/files`)).body.data;
      expect(files).toEqual([
        { path: '/app/logo.png', version: 1, size: LOGO.length, binary: true },
      ]);
    } finally {
      await limited.svc.close();
    }
  });

  it('keeps the bytes through snapshots, restore and studio sessions', async () => {
    const id = await s.session();
    await s.api.post(`/sessions/${id}/push`, {
      files: { '/app/logo.png': base64(LOGO), '/app/font.ttf': base64(FONT), '/app/a.ts': 'a' },
    });
    const snapshot = await s.api.post(`/sessions/${id}/snapshots`, { label: 'with bytes' });
    expect(snapshot.body.data).toMatchObject({
      fileCount: 3,
      totalBytes: LOGO.length + FONT.length + 1,
    });
    const other = png(3, 3);
    await s.api.post(`/sessions/${id}/push`, { files: { '/app/logo.png': base64(other) } });
    await s.api.del(`/sessions/${id}/files/app/font.ttf`);
    const restored = await s.api.post(`/sessions/${id}/snapshots/${snapshot.body.data.id}/restore`);
    expect(restored.body.data).toMatchObject({ written: 2, deleted: 0 });
    expect((await raw(`/sessions/${id}/files/app/logo.png`)).bytes.equals(LOGO)).toBe(true);
    expect((await raw(`/sessions/${id}/files/app/font.ttf`)).bytes.equals(FONT)).toBe(true);
    expect((await raw(`/sessions/${id}/files/app/logo.png?version=2`)).bytes.equals(other)).toBe(true); // prettier-ignore

    const app = await s.api.post('/apps', { sessionId: id, name: `bytes-${id}` });
    expect(app.status).toBe(201);
    const studio = await s.studio.post('/sessions', { appSid: app.body.data.sid });
    expect(studio.status).toBe(201);
    const copy = studio.body.data.id;
    expect((await raw(`/sessions/${copy}/files/app/logo.png`)).bytes.equals(LOGO)).toBe(true);
    expect((await s.api.get(`/sessions/${copy}/files`)).body.data).toContainEqual({
      path: '/app/font.ttf',
      version: 1,
      size: FONT.length,
      binary: true,
    });
  });

  it('never serves an image, font or media file as a script', () => {
    const types = Object.fromEntries(
      ['png', 'jpg', 'gif', 'webp', 'avif', 'ico', 'svg', 'woff', 'woff2', 'ttf', 'otf']
        .concat(['mp3', 'mp4', 'wasm', 'pdf'])
        .map((ext) => [ext, contentType(`/app/f.${ext}`, true)]),
    );
    expect(types).toEqual({
      png: 'image/png',
      jpg: 'image/jpeg',
      gif: 'image/gif',
      webp: 'image/webp',
      avif: 'image/avif',
      ico: 'image/x-icon',
      svg: 'image/svg+xml; charset=utf-8',
      woff: 'font/woff',
      woff2: 'font/woff2',
      ttf: 'font/ttf',
      otf: 'font/otf',
      mp3: 'audio/mpeg',
      mp4: 'video/mp4',
      wasm: 'application/wasm',
      pdf: 'application/pdf',
    });
    expect(contentType('/app/data.bin', true)).toBe('application/octet-stream');
    expect(contentType('/app/notes', false)).toBe('text/plain; charset=utf-8');
  });
});
