import { Script } from 'node:vm';
import { IDENTITY_HEADER, signIdentity } from '@platform/core';
import { useService } from '@platform/testing';
import { contentPolicy, labelOf } from '../src/domain/origins';
import { stageUnderTest } from './helpers';

const s = useService(stageUnderTest, { scope: 'all' });

const REACT_APP = {
  '/app/main.tsx': [
    "import { createRoot } from 'react-dom/client';",
    "import { App } from './App';",
    "import './styles.css';",
    "createRoot(document.getElementById('root')!).render(<App />);",
  ].join('\n'),
  '/app/App.tsx': [
    "import { useState } from 'react';",
    "import data from './data.json';",
    'export function App() {',
    '  const [n] = useState<number>(data.start);',
    '  return <h1 className="title">Count is {n}</h1>;',
    '}',
  ].join('\n'),
  '/app/styles.css': '.title { color: rebeccapurple; }',
  '/app/data.json': '{ "start": 41 }',
  '/app/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
};

async function rendered(files: Record<string, string>, entry = '/app/main.tsx') {
  const id = await s.session();
  await s.push(id, files);
  const res = await s.api.post(`/sessions/${id}/render`, { entry });
  return { id, res };
}

const bundleOf = async (id: string) => (await s.page(`/preview/${id}/__render/bundle.js`)).body;

describe('render', () => {
  it('bundles a React app (TSX, CSS, JSON) with the shipped react and serves it as a preview page', async () => {
    const { id, res } = await rendered(REACT_APP);
    expect(res).toEqual({
      status: 200,
      body: { success: true, data: { entry: '/app/main.tsx', version: 1 } },
    });
    const status = (await s.api.get(`/sessions/${id}/status`)).body.data;
    expect(status.render).toEqual({
      entry: '/app/main.tsx',
      version: 1,
      error: null,
      renderedAt: expect.any(Number),
    });

    const js = await bundleOf(id);
    expect(js).toContain('Count is');
    expect(js).toContain('react.transitional.element'); // React 19 itself is in the bundle
    expect(() => new Script(js)).not.toThrow();
    const css = await s.page(`/preview/${id}/__render/bundle.css`);
    expect(css.body).toContain('.title{color:#639}'); // rebeccapurple, minified
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');

    expect(
      await s.svc.app.inject({ url: `/preview/${id}`, headers: { host: 'localhost:3000' } }),
    ).toMatchObject({
      // prettier-ignore
      statusCode: 302,
      headers: { location: `http://${labelOf(id)}.preview.localhost:3000/` },
    });
    const page = await s.page(`/preview/${id}/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<div id="root"></div>');
    expect(page.body).toContain('<script src="__render/bundle.js?v=1"></script>');
    expect(page.body).toContain('<link rel="stylesheet" href="__render/bundle.css?v=1">');
    const logo = await s.page(`/preview/${id}/logo.svg`);
    expect([logo.status, logo.headers['content-type'], logo.body]).toEqual([
      200,
      'image/svg+xml; charset=utf-8',
      REACT_APP['/app/logo.svg'],
    ]);

    expect(
      (await s.api.post(`/sessions/${id}/render`, { entry: '/app/main.tsx' })).body.data.version,
    ).toBe(2);
    expect((await s.page(`/preview/${id}/`)).body).toContain('bundle.js?v=2');
  });

  it("serves every preview response under its own origin's CSP: itself, framed by the platform", async () => {
    const { id } = await rendered(REACT_APP);
    for (const url of [
      `/preview/${id}/`,
      `/preview/${id}/__render/bundle.js`,
      `/preview/${id}/logo.svg`,
      `/preview/${id}/missing.png`,
    ]) {
      const csp = (await s.page(url)).headers['content-security-policy'];
      expect([url, csp]).toEqual([url, contentPolicy('http://localhost:* http://127.0.0.1:*')]); // prettier-ignore
    }
    const csp = contentPolicy('https://platform.example.com', ['https://api.example.com']);
    expect(csp).toContain("connect-src 'self' https://api.example.com;");
    expect(csp).toContain("form-action 'self';");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toMatch(/frame-ancestors 'self' https:\/\/platform\.example\.com$/);
  });

  it("uses the session's own index.html, loading the bundle in place of the entry's script tag", async () => {
    const html =
      '<!doctype html><html><head><title>Mine</title></head><body><main id="root"></main><script type="module" src="/main.tsx"></script><script src="/vendor.js"></script></body></html>';
    const { id } = await rendered({
      ...REACT_APP,
      '/app/index.html': html,
      '/app/vendor.js': 'window.x = 1',
    });
    const page = (await s.page(`/preview/${id}/`)).body;
    expect(page).toContain(
      '<title>Mine</title><link rel="stylesheet" href="__render/bundle.css?v=1"><script defer src="__render/bundle.js?v=1"></script></head>',
    );
    expect(page).not.toContain('main.tsx');
    expect(page).toContain('<script src="/vendor.js"></script>');
  });

  it('reports a syntax error with its file, line and column, and keeps serving the last good render', async () => {
    const { id } = await rendered(REACT_APP);
    const good = await bundleOf(id);
    await s.push(id, { '/app/App.tsx': 'export function App() {\n  return <h1>oops</h1\n}' });
    const res = await s.api.post(`/sessions/${id}/render`, { entry: '/app/main.tsx' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toMatch(
      /^Render of \/app\/main\.tsx failed \(\/app\/App\.tsx:3:1\): Expected ">" but found "}"$/,
    );
    const render = (await s.api.get(`/sessions/${id}/render`)).body.data;
    expect(render).toEqual({
      entry: '/app/main.tsx',
      version: 1,
      error: { message: 'Expected ">" but found "}"', file: '/app/App.tsx', line: 3, column: 1 },
      renderedAt: expect.any(Number),
    });
    expect(await bundleOf(id)).toBe(good);
    expect((await s.page(`/preview/${id}/`)).status).toBe(200);

    await s.push(id, { '/app/App.tsx': 'export function App() { return <h1>fixed</h1>; }' });
    expect(
      (await s.api.post(`/sessions/${id}/render`, { entry: '/app/main.tsx' })).body.data,
    ).toEqual({ entry: '/app/main.tsx', version: 2 });
    expect((await s.api.get(`/sessions/${id}/render`)).body.data.error).toBeNull();
    expect(await bundleOf(id)).toContain('fixed');
  });

  it.each([
    [
      // Other packages come from the npm registry: npm-*.test.ts.
      { '/app/a.ts': "import { readFileSync } from 'fs';\nconsole.log(readFileSync);" },
      '/app/a.ts',
      '"fs" cannot be imported: it is a Node.js module, not available here',
      1,
    ],
    [
      { '/app/a.ts': "import x from './missing';\nconsole.log(x);" },
      '/app/a.ts',
      'Could not resolve "./missing": no file /app/missing in the session',
      1,
    ],
    [
      { '/app/a.ts': "import x from '../../../../etc/passwd';\nconsole.log(x);" },
      '/app/a.ts',
      'Could not resolve "../../../../etc/passwd": no file /etc/passwd in the session',
      1,
    ],
    [
      { '/app/a.ts': "import x from 'react/../../package.json';\nconsole.log(x);" },
      '/app/a.ts',
      '"react/../../package.json" cannot be imported: a package path may not contain "." or ".." segments',
      1,
    ],
    [
      { '/app/a.ts': "import x from 'https://esm.sh/lodash';\nconsole.log(x);" },
      '/app/a.ts',
      '"https://esm.sh/lodash" cannot be imported: imports by URL are not supported (name an npm package, or a file of the session)',
      1,
    ],
  ])('refuses imports from outside the session: %j', async (files, file, message, line) => {
    const { res } = await rendered(files, '/app/a.ts');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      `Render of /app/a.ts failed (${file}:${line}:${res.body.error.message.match(/:(\d+)\): /)[1]}): ${message}`,
    );
  });

  it('refuses an entry that is missing or not a script, and a first render that fails leaves version 0', async () => {
    const id = await s.session();
    await s.push(id, { '/app/styles.css': 'a{}' });
    const missing = await s.api.post(`/sessions/${id}/render`, { entry: '/app/main.tsx' });
    expect(missing.body.error.message).toBe(
      'Render of /app/main.tsx failed: The entry /app/main.tsx is not a file of the session',
    );
    const css = await s.api.post(`/sessions/${id}/render`, { entry: '/app/styles.css' });
    expect(css.body.error.message).toBe(
      'Render of /app/styles.css failed: The entry /app/styles.css must be a script (.ts, .tsx, .js, .jsx or .mjs)',
    );
    expect(
      (await s.api.post(`/sessions/${id}/render`, { entry: 'main.tsx' })).body.error.message,
    ).toBe('entry "main.tsx" must be absolute (start with /)');
    expect((await s.api.get(`/sessions/${id}/render`)).body.data).toMatchObject({
      entry: '/app/styles.css',
      version: 0,
      renderedAt: null,
    });
    const page = await s.page(`/preview/${id}/`);
    expect([page.status, page.body]).toEqual([
      404,
      expect.stringContaining(`Nothing rendered yet: render the session ${id} first`),
    ]);
  });

  it('answers 404 pages for an unknown session or file, and never serves outside the page folder', async () => {
    const { id } = await rendered({ ...REACT_APP, '/secret.txt': 'no' });
    expect((await s.page('/preview/nope1234/')).status).toBe(404);
    expect((await s.page(`/preview/${id}/nothing.js`)).status).toBe(404);
    expect((await s.page(`/preview/${id}/..%2Fsecret.txt`)).status).toBe(404);
    expect((await s.page(`/preview/${id}/../secret.txt`)).status).not.toBe(200);
  });
});

describe('preview with authentication on', () => {
  const env = {
    OIDC_ISSUER: 'https://id.example.com',
    OIDC_CLIENT_ID: 'c',
    OIDC_CLIENT_SECRET: 's',
    SESSION_SECRET: 'x'.repeat(32),
  };
  const auth = useService(() => stageUnderTest(env), { scope: 'all' });

  it("asks a preview's visitor to sign in, for its page and its assets alike", async () => {
    const headers = {
      [IDENTITY_HEADER]: await signIdentity(env.SESSION_SECRET, {
        kind: 'user',
        email: 'dev@example.com',
        name: 'Dev',
        sessionId: 's-dev',
        role: 'member',
        groups: [],
      }),
    };
    const created = await auth.svc.app.inject({
      method: 'POST',
      url: '/api/v1/stage/sessions',
      headers,
    });
    const id = created.json().data.id;
    await auth.svc.app.inject({
      method: 'POST',
      url: `/api/v1/stage/sessions/${id}/push`,
      headers,
      payload: { files: REACT_APP },
    });
    const render = await auth.svc.app.inject({
      method: 'POST',
      url: `/api/v1/stage/sessions/${id}/render`,
      headers,
      payload: { entry: '/app/main.tsx' },
    });
    expect(render.statusCode).toBe(200);
    // Its own origin has its own cookie (origins.test.ts signs in): without it, to the platform.
    for (const path of ['', '__render/bundle.js']) {
      const res = await auth.page(`/preview/${id}/${path}`);
      expect([res.status, res.headers.location]).toEqual([302, expect.stringContaining(`/preview/${id}/__signin?to=`)]); // prettier-ignore
    }
    expect((await auth.page(`/api/v1/stage/sessions/${id}/status`)).status).toBe(401);
  });
});
