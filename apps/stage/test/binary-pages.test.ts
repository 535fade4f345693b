import { Script, createContext } from 'node:vm';
import { launchBrowser, listen, openPage, useService } from '@platform/testing';
import type { Browser } from 'playwright-core';
import { labelOf } from '../src/domain/origins';
import { INLINE_LIMIT } from '../src/domain/render/assets';
import { png, ttf } from './binary-fixtures';
import { onItsOrigin, stageUnderTest } from './helpers';

// Binary files on a page (issue 32): `import logo from './logo.png'` yields a URL the page loads
// (a data: URL under 4 KB), url() in CSS likewise, `public/` is served at the page's root, and
// every file goes out as its bytes with its type; then the same page in Chromium.

const s = useService(stageUnderTest, { scope: 'all' });

const LOGO = png(64, 64, true); // over INLINE_LIMIT: a URL
const ICON = png(2, 2); // under it: a data: URL
const FONT = ttf('StageTest');
const FAVICON = png(16, 16);
const base64 = (bytes: Buffer) => ({ content: bytes.toString('base64'), encoding: 'base64' });

const APP = {
  '/app/index.html':
    '<!doctype html><html><head><title>Assets</title><link rel="icon" href="/favicon.ico"></head><body><div id="root"></div><script type="module" src="./src/main.ts"></script></body></html>',
  '/app/src/main.ts': [
    "import logo from '../assets/logo.png';",
    "import icon from './icon.png';",
    "import './styles.css';",
    '(globalThis as any).assets = { logo, icon };',
    "const root = document.getElementById('root')!;",
    'root.innerHTML = `<img id="logo" src="${logo}"><img id="icon" src="${icon}"><p class="t">A</p>`;',
  ].join('\n'),
  '/app/src/styles.css': [
    "@font-face { font-family: StageTest; src: url('../fonts/StageTest.ttf?v=1#x') format('truetype'); }",
    '.t { font-family: StageTest; }',
    'body { background-image: url("../assets/logo.png"); }',
    '.i { background-image: url(icon.png); }',
    '.f { background-image: url(/favicon.ico); }',
    '.m { background-image: url(./missing.png); }',
  ].join('\n'),
};
const BYTES = {
  '/app/assets/logo.png': LOGO,
  '/app/src/icon.png': ICON,
  '/app/fonts/StageTest.ttf': FONT,
  '/app/public/favicon.ico': FAVICON,
  '/app/public/robots.txt': Buffer.from('User-agent: *\n'),
};

async function renderedApp() {
  const id = await s.session();
  const files = { ...APP, ...Object.fromEntries(Object.entries(BYTES).map(([p, b]) => [p, base64(b)])) }; // prettier-ignore
  expect((await s.api.post(`/sessions/${id}/push`, { files })).status).toBe(200);
  const res = await s.api.post(`/sessions/${id}/render`, { entry: '/app/src/main.ts' });
  expect(res.body).toMatchObject({ success: true });
  return id;
}

/** A GET on the preview's own origin: status, headers, bytes. */
async function preview(id: string, rest: string) {
  const res = await s.svc.app.inject({ method: 'GET', ...onItsOrigin(`/preview/${id}/${rest}`) });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, text: res.body };
}

describe('binary files on a page', () => {
  it('serves the files as bytes with their types, and public/ at the root', async () => {
    const id = await renderedApp();
    for (const [rest, bytes, type] of [
      ['assets/logo.png', LOGO, 'image/png'],
      ['fonts/StageTest.ttf', FONT, 'font/ttf'],
      ['favicon.ico', FAVICON, 'image/x-icon'],
      ['public/favicon.ico', FAVICON, 'image/x-icon'],
      ['robots.txt', BYTES['/app/public/robots.txt'], 'text/plain; charset=utf-8'],
    ] as const) {
      const got = await preview(id, rest);
      expect([rest, got.status, got.headers['content-type']]).toEqual([rest, 200, type]);
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.bytes.equals(bytes)).toBe(true);
    }
    expect((await preview(id, 'missing.png')).status).toBe(404);
    expect((await preview(id, 'public')).status).toBe(404);
  });

  it('turns imports of images into URLs the page loads, small ones into data: URLs', async () => {
    const id = await renderedApp();
    const js = (await preview(id, '__render/bundle.js')).text;
    // The bundle, run as the page runs it: its script's address gives the page's root.
    const root = { innerHTML: '' };
    const context = createContext({
      URL,
      document: {
        currentScript: { src: 'http://x.preview.localhost:3000/__render/bundle.js?v=1' },
        scripts: [],
        getElementById: () => root,
      },
    });
    new Script(js).runInContext(context);
    const { logo, icon } = (context as { assets: { logo: string; icon: string } }).assets;
    expect(logo).toBe('http://x.preview.localhost:3000/assets/logo.png');
    const served = await preview(id, new URL(logo).pathname.slice(1));
    expect(served.bytes.equals(LOGO)).toBe(true);
    expect(icon).toBe(`data:image/png;base64,${ICON.toString('base64')}`);
    expect(ICON.length).toBeLessThan(INLINE_LIMIT);
    expect(root.innerHTML).toContain(`<img id="logo" src="${logo}">`);

    // url() in CSS: relative to the stylesheet at /__render/bundle.css, or inlined.
    const css = (await preview(id, '__render/bundle.css')).text;
    expect(css).toContain(`url(data:font/ttf;base64,${FONT.toString('base64')})`);
    expect(css).toContain('background-image:url(../assets/logo.png)');
    expect(css).toContain(`.i{background-image:url(data:image/png;base64,${ICON.toString('base64')})}`); // prettier-ignore
    expect(css).toContain('.f{background-image:url(/favicon.ico)}');
    expect(css).toContain('.m{background-image:url(./missing.png)}');
    const bg = new URL('../assets/logo.png', 'http://x.preview.localhost/__render/bundle.css');
    expect((await preview(id, bg.pathname.slice(1))).bytes.equals(LOGO)).toBe(true);
  });

  it('refuses to import a file the page cannot be served, naming it', async () => {
    const id = await s.session();
    await s.api.post(`/sessions/${id}/push`, {
      files: {
        '/app/index.html': '<div id="root"></div>',
        '/app/main.ts': "import clip from '../shared/clip.mp4';\nconsole.log(clip);",
        '/shared/clip.mp4': base64(Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70])),
      },
    });
    const res = await s.api.post(`/sessions/${id}/render`, { entry: '/app/main.ts' });
    expect([res.status, res.body.error.message]).toEqual([
      400,
      "Render of /app/main.ts failed (/app/main.ts:1:18): /shared/clip.mp4 is outside the page's folder /app: the page cannot load it (move it under /app)",
    ]);
  });

  describe('in Chromium', () => {
    let browser: Browser;
    let base: string;
    beforeAll(async () => {
      browser = await launchBrowser();
      base = await listen(s.svc.app);
    }, 60_000);
    afterAll(() => browser?.close());

    it('shows the images, loads the font and the public files, with no error', async () => {
      const id = await renderedApp();
      const port = new URL(base).port;
      const web = await openPage(browser, `http://${labelOf(id)}.preview.localhost:${port}`);
      try {
        await web.page.goto('/');
        await web.page.waitForFunction(() =>
          [...document.images].every((img) => img.complete && img.naturalWidth > 0),
        );
        const seen = await web.page.evaluate(async () => {
          const faces = await document.fonts.load('16px StageTest');
          const favicon = await fetch('/favicon.ico');
          return {
            images: [...document.images].map((img) => [img.id, img.naturalWidth]),
            font: faces.map((face) => [face.family, face.status]),
            favicon: [favicon.status, (await favicon.arrayBuffer()).byteLength],
            background: performance
              .getEntriesByType('resource')
              .some((entry) => entry.name.endsWith('/assets/logo.png')),
          };
        });
        expect(seen).toEqual({
          images: [
            ['logo', 64],
            ['icon', 2],
          ],
          font: [['StageTest', 'loaded']],
          favicon: [200, FAVICON.length],
          background: true,
        });
        // Chromium's word on the origin's frame-ancestors list (routes/content.ts, not these
        // files) aside: no error, no blocked or failed load.
        expect(web.errors.filter((e) => !e.includes("directive 'frame-ancestors'"))).toEqual([]);
        expect(web.failures).toEqual([]);
      } finally {
        await web.close();
      }
    });
  });
});
