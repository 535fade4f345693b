import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { listen } from '@platform/testing';
import { SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';
import {
  BAD_TEXT,
  HUGE,
  badBodies,
  nearlyRightBodies,
  type Document,
  type Operation,
} from './sweep-inputs';

// Every operation of the OpenAPI document, sent malformed path parameters, queries and bodies:
// whatever the input, the answer is an envelope and never a 5xx.

const document = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'libs', 'client', 'openapi.json'), 'utf8'),
) as Document;
// Deletes last: until then every path parameter names a record that exists.
const operations = Object.entries(document.paths)
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  )
  .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

let gw: GatewayUnderTest;
let base: string;
beforeAll(async () => {
  const features = Object.fromEntries(
    SERVICES.map((s) => [`FEATURE_${s.name.toUpperCase()}`, 'true']),
  );
  // Every optional part configured, so that its routes are reached too.
  const signingKey = generateKeyPairSync('ed25519').privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  });
  gw = await gatewayUnderTest({
    ...features,
    LEDGER_SIGNING_KEY: signingKey.toString(),
    GIT_WEBHOOK_SECRET: 'sweep',
  });
  base = await listen(gw.app);
  await seed();
});

/**
 * One record of each kind, named `sweep`, so that malformed bodies and queries reach the
 * handlers' own code instead of stopping at a 404. Path parameters named `id` get the real id.
 */
const ids = new Map<string, string>();
async function seed() {
  const records: Array<[string, object]> = [
    ['/api/v1/ledger/events', { action: 'sweep' }],
    ['/api/v1/ledger/policies', { name: 'sweep', retentionDays: 30 }],
    [
      '/api/v1/ledger/classifications',
      { serviceId: 's', field: 'a', level: 'pii', justification: 'j' },
    ],
    ['/api/v1/catalog/systems', { name: 'sweep' }],
    ['/api/v1/catalog/owners', { name: 'sweep' }],
    ['/api/v1/catalog/services', { name: 'other' }],
    ['/api/v1/catalog/services', { name: 'sweep', system: 'sweep', owner: 'sweep' }],
    ['/api/v1/catalog/services/sweep/dependencies', { dependsOn: 'other' }],
    ['/api/v1/catalog/apis', { name: 'sweep', type: 'openapi' }],
    ['/api/v1/palette/tokens', { name: 'sweep', category: 'color', value: '#000' }],
    ['/api/v1/palette/components', { name: 'sweep', tokens: ['sweep'] }],
    ['/api/v1/palette/patterns', { name: 'sweep', components: ['sweep'] }],
    ['/api/v1/palette/standards', { name: 'sweep' }],
    ['/api/v1/palette/a11y', { name: 'sweep', severity: 'minor', components: ['sweep'] }],
    ['/api/v1/billing/categories', { name: 'sweep' }],
    ['/api/v1/billing/items', { name: 'sweep', amount: 100 }],
    ['/api/v1/pulse/events', { name: 'sweep' }],
    ['/api/v1/passport/keys', { name: 'sweep' }],
    [
      '/api/v1/passport/providers',
      { name: 'sweep', type: 'github', clientId: 'sweep', clientSecret: 'env:OAUTH_SWEEP_SECRET' },
    ],
    ['/api/v1/communication/channels', { name: 'sweep', provider: 'log', config: {} }],
    ['/api/v1/communication/apps/sweep/channels', { channelId: 'sweep', target: 'sweep' }],
  ];
  for (const [url, payload] of records) {
    const res = await gw.app.inject({ method: 'POST', url, payload });
    if (res.statusCode >= 300) throw new Error(`seeding ${url}: ${res.body}`);
    ids.set(`${url}/{id}`, res.json().data.id);
  }
  const sent = await gw.app.inject({
    method: 'POST',
    url: '/api/v1/communication/apps/sweep/send',
    payload: { channelId: 'sweep', text: 'sweep' },
  });
  if (sent.statusCode >= 300) throw new Error(`seeding a delivery: ${sent.body}`);
  ids.set('/api/v1/communication/apps/{appId}/deliveries/{id}', sent.json().data.delivery.id);
  await seedStage();
  await seedInference();
  await seedGit();
}

async function postData(url: string, payload: object) {
  const res = await gw.app.inject({ method: 'POST', url, payload });
  if (res.statusCode >= 300) throw new Error(`seeding ${url}: ${res.body}`);
  return res.json().data;
}

/** A mock provider `sweep`, and a call it answered. */
async function seedInference() {
  const provider = await postData('/api/v1/inference/providers', {
    name: 'sweep',
    type: 'mock',
    defaultModel: 'mock-1',
  });
  ids.set('/api/v1/inference/providers/{idOrName}', provider.id);
  const chat = await postData('/api/v1/inference/chat', {
    providerId: provider.id,
    messages: [{ role: 'user', content: 'sweep' }],
  });
  ids.set('/api/v1/inference/requests/{id}', chat.requestId);
}

/** A local repository `sweep/sweep` with a commit on main and a pull request from a branch. */
async function seedGit() {
  const git = '/api/v1/git';
  const provider = await postData(`${git}/providers`, { name: 'sweep', type: 'local' });
  const repo = await postData(`${git}/repos`, {
    providerId: provider.id,
    owner: 'sweep',
    repoName: 'sweep',
  });
  const commit = (branch: string) =>
    postData(`${git}/repos/${repo.id}/commits`, {
      branch,
      message: 'sweep',
      files: [{ path: 'app/main.ts', content: branch }],
    });
  const { sha } = await commit('main');
  await postData(`${git}/repos/${repo.id}/branches`, { name: 'topic', from: 'main' });
  await commit('topic');
  const pull = await postData(`${git}/repos/${repo.id}/pulls`, {
    title: 'sweep',
    head: 'topic',
    base: 'main',
  });
  for (const { path } of operations) if (path.startsWith(`${git}/repos/{`)) ids.set(path, repo.id);
  ids.set(`${git}/providers/{idOrName}`, provider.id);
  ids.set('sha', sha);
  ids.set('number', String(pull.number));
  ids.set(`${git}/repos/{id}/compare/{path} path`, 'main...topic');
}

/** A sandbox session with files, a render and a snapshot, published as the app `sweep`. */
async function seedStage() {
  const post = async (url: string, payload: object) => {
    const res = await gw.app.inject({ method: 'POST', url: `/api/v1/stage${url}`, payload });
    if (res.statusCode >= 300) throw new Error(`seeding ${url}: ${res.body}`);
    return res.json().data;
  };
  const { id } = await post('/sessions', {});
  const workflows = {
    version: 1,
    workflows: {
      sweep: {
        steps: [
          { 'sheets.createSpreadsheet': { title: 'sweep' }, as: 'sheet' },
          { respond: { spreadsheetId: '{{ steps.sheet.spreadsheetId }}' } },
        ],
      },
    },
  };
  await post(`/sessions/${id}/push`, {
    files: {
      '/app/main.ts': 'export const a = 1;',
      '/app/platform.workflows.json': JSON.stringify(workflows),
    },
  });
  await post(`/sessions/${id}/render`, { entry: '/app/main.ts' });
  const snapshot = await post(`/sessions/${id}/snapshots`, { label: 'sweep' });
  const app = await post('/apps', { sessionId: id, name: 'sweep' });
  const run = await gw.app.inject({ method: 'POST', url: `/api/v1/run/${app.sid}/sweep` });
  if (run.statusCode !== 200) throw new Error(`seeding a workflow run: ${run.body}`);
  for (const { path } of operations)
    if (path.startsWith('/api/v1/stage/sessions/{id}')) ids.set(path, id);
  ids.set('snapshotId', snapshot.id);
  ids.set('runId', String(run.headers['x-workflow-run']));
  ids.set('spreadsheetId', run.json().data.spreadsheetId);
  ids.set('workflowName', 'sweep');
}

/** Required query parameters, so that a GET reaches its handler. */
const REQUIRED_QUERY: Record<string, string> = { path: '/app/main.ts' };
const requiredQuery = (op: Operation) => {
  const required = (op.parameters ?? []).filter((p) => p.in === 'query' && p.required);
  return required.length === 0
    ? ''
    : `?${required.map((p) => `${p.name}=${encodeURIComponent(REQUIRED_QUERY[p.name] ?? 'sweep')}`).join('&')}`;
};

/** Operations whose success is not JSON (a file's content): only their errors are envelopes. */
const answersRaw = (op: Operation) =>
  Object.keys(op.responses?.['200']?.content ?? { 'application/json': 1 }).every(
    (type) => type !== 'application/json',
  );

const sampleId = (name: string, path = '') =>
  ids.get(`${path} ${name}`) ||
  ((name === 'id' || name === 'idOrName') && ids.get(path)) ||
  ids.get(name) ||
  { name: 'pulse', dependsOn: 'other', path: 'app/main.ts' }[name] ||
  'sweep';
afterAll(() => gw.close());

function fill(path: string, value: (name: string) => string) {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));
}

async function send(method: string, url: string, body?: string, contentType?: string) {
  const res = await gw.app.inject({
    method: method as 'GET',
    url,
    ...(body === undefined
      ? {}
      : { payload: body, headers: { 'content-type': contentType ?? 'application/json' } }),
  });
  return { status: res.statusCode, body: res.body, url, method };
}

function expectEnvelope(res: Awaited<ReturnType<typeof send>>) {
  const where = `${res.method} ${res.url.slice(0, 200)} -> ${res.status} ${res.body.slice(0, 300)}`;
  expect({ where, status: res.status < 500 }).toEqual({ where, status: true });
  let json: { success?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    json = JSON.parse(res.body);
  } catch {
    throw new Error(`Not JSON: ${where}`);
  }
  if (json.success === true) return;
  expect({ where, envelope: json }).toEqual({
    where,
    envelope: {
      success: false,
      error: { code: expect.any(String), message: expect.any(String) },
    },
  });
}

describe('every operation of the OpenAPI document', () => {
  it('reaches the handlers: every record a GET names exists', async () => {
    const named = operations.filter(
      // (A sync job's id is not seeded; connecting a provider needs a signed-in person.)
      (o) =>
        o.method === 'GET' &&
        o.path.includes('{') &&
        !o.path.includes('/sync/jobs/') &&
        !o.path.endsWith('/connect'),
    );
    expect(named.length).toBeGreaterThan(15);
    for (const { path, op } of named) {
      const res = await send('GET', fill(path, (name) => sampleId(name, path)) + requiredQuery(op));
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });

  it('is documented with at least one operation per enabled service', () => {
    expect(operations.length).toBeGreaterThan(50);
    for (const service of SERVICES)
      expect(operations.some((o) => o.path.startsWith(service.prefix))).toBe(true);
  });

  it.each(operations.map((o) => [`${o.method} ${o.path}`, o] as const))(
    '%s answers envelopes, never a 5xx, to malformed input',
    async (_name, { path, method, op }) => {
      const params = op.parameters ?? [];
      const url = fill(path, (name) => sampleId(name, path));
      const answers: Array<Awaited<ReturnType<typeof send>>> = [];

      // Path parameters: each one replaced by each bad text.
      for (const p of params.filter((x) => x.in === 'path'))
        for (const text of BAD_TEXT.filter((t) => t !== ''))
          answers.push(
            await send(
              method,
              fill(path, (name) => (name === p.name ? text : sampleId(name))),
            ),
          );
      // Query parameters: each one given each bad text, then repeated, then unknown ones.
      for (const p of params.filter((x) => x.in === 'query')) {
        for (const text of BAD_TEXT)
          answers.push(await send(method, `${url}?${p.name}=${encodeURIComponent(text)}`));
        answers.push(await send(method, `${url}?${p.name}=1&${p.name}=2`));
      }
      answers.push(await send(method, `${url}?unknown=1&id=x&description=y&tags=z`));
      answers.push(await send(method, `${url}?limit=-5&offset=99999999999999999999`));
      answers.push(await send(method, `${url}?%zz=%zz&limit=%ED%A0%80`));
      if (params.some((p) => p.in === 'path'))
        answers.push(await send(method, `${url}%ED%A0%80%zz`));
      // Bodies.
      if (op.requestBody || ['POST', 'PUT', 'PATCH'].includes(method)) {
        const schema = op.requestBody?.content['application/json']?.schema;
        for (const [body, type] of badBodies(schema))
          answers.push(await send(method, url, body, type));
        for (const body of nearlyRightBodies(schema)) answers.push(await send(method, url, body));
        answers.push(await send(method, url, JSON.stringify({ big: HUGE.repeat(12) })));
      }

      for (const res of answers) if (!(answersRaw(op) && res.status < 300)) expectEnvelope(res);
    },
  );

  it('still answers health afterwards', async () => {
    const res = await gw.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('ok');
  });
});

describe('limits of the HTTP layer, over a real socket', () => {
  it('answers an over-long path parameter with a 414 envelope', async () => {
    const res = await request(`${base}/api/v1/catalog/services/${'a'.repeat(10_000)}`);
    expect(res.statusCode).toBe(414);
    expect(await res.body.json()).toEqual({
      success: false,
      error: { code: 'URI_TOO_LONG', message: 'A path parameter is longer than 1000 characters' },
    });
  });

  it('answers oversized headers with a 431 envelope', async () => {
    const res = await request(`${base}/api/v1/pulse/events`, {
      headers: { 'x-big': 'a'.repeat(64 * 1024) },
    });
    expect(res.statusCode).toBe(431);
    expect(await res.body.json()).toEqual({
      success: false,
      error: { code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large' },
    });
  });

  it('answers a badly percent-encoded URL with a 400 envelope', async () => {
    const res = await request(`${base}/api/v1/catalog/services/%E0%A4%A`);
    expect(res.statusCode).toBe(400);
    expect((await res.body.json()) as unknown).toMatchObject({
      success: false,
      error: { code: 'BAD_REQUEST' },
    });
  });

  it('answers a huge offset with a 400 naming the bound', async () => {
    for (const path of ['catalog/systems', 'catalog/owners', 'pulse/events']) {
      const res = await request(`${base}/api/v1/${path}?offset=99999999999999999999`);
      expect(res.statusCode).toBe(400);
      expect(await res.body.json()).toEqual({
        success: false,
        error: { code: 'BAD_REQUEST', message: 'offset must be at most 2147483647' },
      });
    }
  });
});
