import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import stage from '@platform/stage';
import { listen, serviceUnderTest, useService } from '@platform/testing';
import { pushedFile } from '../src/files';
import { cli, json, tempDir } from './helpers';

// `stage sessions push` sends binary files (not UTF-8, or holding NUL) in base64, and `pull` and
// `read` give their bytes back; against the real stage service on a port.

const svc = useService(() => serviceUnderTest(stage, { jobs: false }), { scope: 'all' });
let env: Record<string, string>;
beforeAll(async () => {
  env = { PLATFORM_URL: await listen(svc.app), XDG_CONFIG_HOME: tempDir() };
});

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]);
const FONT = Buffer.from([0, 1, 0, 0, 0, 10, 0, 0x80, 0, 3, 0, 0x20]);
const FILES: Record<string, Buffer> = {
  'logo.png': PNG,
  'fonts/a.ttf': FONT,
  'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9]),
  'main.ts': Buffer.from('export const x = "café";\n'),
};

describe('binary files from the command line', () => {
  it('tells text from bytes by content: UTF-8 without NUL is text', () => {
    expect(pushedFile(Buffer.from('café'))).toBe('café');
    expect(pushedFile(Buffer.from('\ufeffx'))).toBe('\ufeffx');
    expect(pushedFile(Buffer.from([0x61, 0, 0x62]))).toEqual({ content: 'YQBi', encoding: 'base64' }); // prettier-ignore
    expect(pushedFile(Buffer.from([0xe9]))).toEqual({ content: '6Q==', encoding: 'base64' });
  });

  it('pushes images and fonts base64, and pulls and reads them back byte for byte', async () => {
    const src = tempDir();
    mkdirSync(join(src, 'fonts'));
    for (const [path, bytes] of Object.entries(FILES)) writeFileSync(join(src, path), bytes);
    const { id } = await json(['stage', 'sessions', 'create'], env);
    const pushed = await json(['stage', 'sessions', 'push', id, src], env);
    expect(pushed.count).toBe(4);
    const status = await json(['stage', 'sessions', 'status', id], env);
    expect(status.files).toEqual([
      { path: '/app/fonts/a.ttf', version: 1, size: FONT.length, binary: true },
      { path: '/app/latin1.txt', version: 1, size: 4, binary: true },
      { path: '/app/logo.png', version: 1, size: PNG.length, binary: true },
      { path: '/app/main.ts', version: 1, size: FILES['main.ts'].length },
    ]);

    const out = tempDir();
    const pulled = await cli(['stage', 'sessions', 'pull', id, out], env);
    expect(pulled).toMatchObject({ code: 0, stdout: `Pulled 4 files into ${out}\n` });
    for (const [path, bytes] of Object.entries(FILES))
      expect([path, readFileSync(join(out, path)).equals(bytes)]).toEqual([path, true]);

    const file = join(tempDir(), 'logo.png');
    const read = await cli(['stage', 'sessions', 'read', id, '/app/logo.png', '-o', file], env);
    expect(read.code).toBe(0);
    expect(readFileSync(file).equals(PNG)).toBe(true);
    expect(await json(['stage', 'sessions', 'read', id, '/app/logo.png'], env)).toEqual({
      path: '/app/logo.png',
      version: 1,
      content: PNG.toString('base64'),
      encoding: 'base64',
    });
    expect(await json(['stage', 'sessions', 'read', id, '/app/main.ts'], env)).toEqual({
      path: '/app/main.ts',
      version: 1,
      content: 'export const x = "café";\n',
    });
  });
});
