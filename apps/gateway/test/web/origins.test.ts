import type { Page, Request } from 'playwright-core';
import { startOpenIdProvider, type OpenIdProvider } from '@platform/testing';
import { webTest } from './harness';

// An app on its own origin, in Chromium, with authentication on (issue 32): its page fetches its
// backend and posts a form to it; the platform's cookie never reaches its origin; another
// site's link or form to /stage/<sid>/api/* does not act as the signed-in person.
let idp: OpenIdProvider;
const web = webTest(async () => {
  idp = await startOpenIdProvider();
  return {
    OIDC_ISSUER: idp.url,
    OIDC_CLIENT_ID: 'platform',
    OIDC_CLIENT_SECRET: 'a-client-secret',
    SESSION_SECRET: 'the-session-secret-of-the-web-origins-test',
    AUTH_DEFAULT_ROLE: 'member',
  };
});
afterAll(() => idp?.stop());

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Todo</title></head>
<body><main><h1>Todo</h1><p id="answer">…</p>
<form method="post" action="/api/form"><label>Item <input name="item" value="milk"></label><button>Add</button></form>
</main><script src="/main.js" type="module"></script></body></html>`;
const MAIN = `fetch('/api/hello').then((r) => r.json()).then((d) => { document.getElementById('answer').textContent = 'backend says hi to ' + d.email; });`;
const BACKEND = `export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/hello') return Response.json({ email: env.auth.email });
    if (request.method === 'POST' && url.pathname === '/form') {
      const form = new URLSearchParams(await request.text());
      return new Response('<!doctype html><html lang="en"><title>Added</title><h1>Added ' + form.get('item') + ' for ' + env.auth.email + '</h1></html>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    }
    return new Response('not found', { status: 404 });
  },
};`;

/** A call of the platform's API with the page's cookies, as its own pages make them. */
async function api(page: Page, base: string, method: string, path: string, body?: unknown) {
  const res = await page.request.fetch(`${base}/api/v1/stage${path}`, {
    method,
    headers: { origin: base, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { data: body }),
  });
  expect([path, res.status()]).toEqual([path, expect.any(Number)]);
  return (await res.json()).data;
}

it('serves an app on its own origin: its page calls its backend, forms post to it, no platform cookie', async () => {
  const base = web.url.replace('127.0.0.1', 'localhost');
  await idp.setClaims({ email: 'ada@example.com', email_verified: true, name: 'Ada' });
  const { page } = await web.openAt(base);
  await page.goto('/stage/');
  await page.locator('header.ui-topbar').getByText('ada@example.com').waitFor();

  const { id } = await api(page, base, 'POST', '/sessions', {});
  await api(page, base, 'POST', `/sessions/${id}/push`, {
    files: { '/app/index.html': PAGE, '/app/main.js': MAIN, '/app/api/index.js': BACKEND },
  });
  await api(page, base, 'POST', `/sessions/${id}/render`, { entry: '/app/main.js' });
  const app = await api(page, base, 'POST', '/apps', { sessionId: id, name: 'todo' });
  expect(app.origin).toMatch(/^http:\/\/[0-9a-f]{16}\.apps\.localhost:\d+$/);

  // Every request Chromium sends to the app's origin: none carries the platform's cookie.
  const sent: Array<Promise<string>> = [];
  page.on('request', (request: Request) => {
    if (request.url().startsWith(app.origin))
      sent.push(request.allHeaders().then((h) => `${request.url()} ${h.cookie ?? ''}`));
  });
  // A private app: the visitor goes through the platform (signed in already) and comes back.
  await page.goto(`${app.origin}/`);
  await page.getByText('backend says hi to ada@example.com').waitFor();
  expect(new URL(page.url()).origin).toBe(app.origin);
  expect(await page.evaluate(() => document.cookie)).toBe('');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('heading', { name: 'Added milk for ada@example.com' }).waitFor();
  const cookies = await Promise.all(sent);
  expect(cookies.length).toBeGreaterThanOrEqual(4);
  expect(cookies.filter((line) => line.includes('platform_session'))).toEqual([]);
  expect(cookies.some((line) => line.includes('stage_visitor='))).toBe(true);

  // The sandbox UI frames the session's preview from its own origin (another site): signed in
  // there through the platform too, its partitioned cookie kept in the frame; its /api is the
  // backend of the app the session serves.
  await page.goto(`${base}/stage/sessions/${id}`);
  const frame = page.frameLocator('iframe[title="Preview"]');
  await frame.getByText('backend says hi to ada@example.com').waitFor();

  // Another site links and posts to the platform origin's /stage/<sid>/api/*: not as Ada.
  const evil = `<!doctype html><html lang="en"><title>Evil</title>
    <a href="${base}/stage/${app.sid}/api/hello">win a prize</a>
    <form method="post" action="${base}/stage/${app.sid}/api/form"><input name="item" value="x"><button>Go</button></form></html>`;
  await page.route('http://evil.test/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: evil }),
  );
  await page.goto('http://evil.test/');
  await page.getByRole('link', { name: 'win a prize' }).click();
  await page.waitForURL(`${base}/stage/${app.sid}/api/hello`);
  const link = await page.locator('body').innerText();
  expect(link).toContain('FORBIDDEN');
  expect(link).not.toContain('ada@example.com');
  await page.goto('http://evil.test/');
  await page.getByRole('button', { name: 'Go' }).click();
  await page.waitForURL(`${base}/stage/${app.sid}/api/form`);
  const posted = await page.locator('body').innerText();
  expect(posted).not.toContain('Added');
  expect(posted).toMatch(/UNAUTHORIZED|FORBIDDEN/);
});
