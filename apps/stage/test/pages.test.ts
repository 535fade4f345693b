import { useService } from '@platform/testing';
import type { StageDatabase } from '../src/database';
import { reclaimSessions } from '../src/repositories/sessions';
import { labelOf } from '../src/domain/origins';
import { stageUnderTest } from './helpers';

const s = useService(stageUnderTest, { scope: 'all' });

const MAIN = { '/app/main.ts': 'document.title = "ok";' };

async function rendered(files: Record<string, string>, entry = '/app/main.ts') {
  const id = await s.session();
  await s.push(id, files);
  const res = await s.api.post(`/sessions/${id}/render`, { entry });
  expect(res.status).toBe(200);
  return id;
}

describe('preview pages', () => {
  it('serves an index.html full of unclosed script tags in linear time', async () => {
    const html = `<html><head></head><body>${"<script src='a' ".repeat(30_000)}</body></html>`;
    const id = await rendered({ ...MAIN, '/app/index.html': html });
    const started = Date.now();
    const page = await s.page(`/preview/${id}/`);
    expect(page.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(page.body).toContain('<script defer src="__render/bundle.js?v=1"></script></head>');
  });

  it('sends index.html by its own address to the page, which is not served by address', async () => {
    const id = await rendered({ ...MAIN, '/app/index.html': '<p>mine</p>' });
    expect(await s.page(`/preview/${id}/index.html`)).toMatchObject({
      status: 302,
      headers: { location: '/' },
    });
  });

  it("serves session code on its own origin only: never on the platform's", async () => {
    const id = await rendered(MAIN);
    const label = labelOf(id);
    const bundle = await s.page(`/preview/${id}/__render/bundle.js`);
    expect([bundle.status, bundle.body]).toEqual([200, expect.stringContaining('document.title')]);
    // The same path on the platform's host: not there, whatever the path says.
    for (const url of [
      `/__previews/${label}/__render/bundle.js`,
      `/__previews/${label}/`,
      '/__apps',
    ]) {
      const res = await s.svc.app.inject({
        method: 'GET',
        url,
        headers: { host: 'localhost:3000' },
      });
      expect([url, res.statusCode, res.json().error.code]).toEqual([url, 404, 'NOT_FOUND']);
    }
    // The old address sends the browser there, path and query kept.
    const old = await s.svc.app.inject({ method: 'GET', url: `/preview/${id}/x/y.css?v=2`, headers: { host: 'localhost:3000' } }); // prettier-ignore
    expect([old.statusCode, old.headers.location]).toEqual([302, `http://${label}.preview.localhost:3000/x/y.css?v=2`]); // prettier-ignore
  });

  it('keeps dropping the served entry from index.html after a failed render of another entry', async () => {
    const html = '<head></head><body><script type="module" src="/main.ts"></script></body>';
    const id = await rendered({ ...MAIN, '/app/index.html': html, '/app/broken.ts': 'let =' });
    expect((await s.api.post(`/sessions/${id}/render`, { entry: '/app/broken.ts' })).status).toBe(
      400,
    );
    expect((await s.api.get(`/sessions/${id}/render`)).body.data.entry).toBe('/app/broken.ts');
    expect((await s.page(`/preview/${id}/`)).body).not.toContain('main.ts');
  });

  it('names no server file in a render error, and ships only the entry points react exports', async () => {
    const id = await s.session();
    await s.push(id, {
      '/app/a.ts': "import { x } from 'react-dom/cjs/react-dom.production.js';\nconsole.log(x);",
    });
    const res = await s.api.post(`/sessions/${id}/render`, { entry: '/app/a.ts' });
    expect(res.body.error.message).toContain(
      '"react-dom/cjs/react-dom.production.js" is not part of the react and react-dom the platform ships',
    );
    expect((await s.api.get(`/sessions/${id}/render`)).body.data.error.file).toBe('/app/a.ts');
  });
});

describe('app pages', () => {
  it('are found by sid only: a name could be guessed', async () => {
    const id = await rendered(MAIN);
    const app = (await s.api.post('/apps', { sessionId: id, name: 'guessable' })).body.data;
    expect((await s.page(`/app/${app.sid}/`)).status).toBe(200);
    expect((await s.page('/app/guessable/')).status).toBe(404);
    expect((await s.page('/app/guessable/__render/bundle.js')).status).toBe(404);
  });
});

describe('retention', () => {
  it('keeps the studio sessions of an app, however old', async () => {
    const id = await rendered(MAIN);
    const app = (await s.api.post('/apps', { sessionId: id, name: 'studio-kept' })).body.data;
    const studio = (await s.studio.post('/sessions', { appSid: app.sid })).body.data;
    const db = s.svc.db.schema<StageDatabase>('stage');
    const old = new Date(Date.now() - 90 * 24 * 3600 * 1000);
    await db
      .updateTable('sessions')
      .set({ last_accessed_at: old })
      .where('id', '=', studio.id)
      .execute();
    await reclaimSessions(db, new Date(Date.now() - 24 * 3600 * 1000));
    expect((await s.api.get(`/sessions/${studio.id}/status`)).status).toBe(200);
  });
});

describe('stage: functions', () => {
  it('refuse ids that would name another route', async () => {
    const res = await s.svc.app.inject({
      method: 'POST',
      url: '/api/v1/stage/functions/getStatus',
      payload: { args: { sessionId: '..' } },
    });
    expect([res.statusCode, res.json().error.message]).toEqual([
      400,
      'args.sessionId is not a valid id',
    ]);
  });
});
