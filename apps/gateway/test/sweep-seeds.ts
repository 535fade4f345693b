import type { GatewayUnderTest } from './helpers';

// The records the sweep (sweep.test.ts) sends its malformed inputs about.

let gw: GatewayUnderTest;
let operations: ReadonlyArray<{ path: string }>;
const ids = new Map<string, string>();

/** With authentication on: who makes each record (its headers), and what every body adds. */
export interface SeedOptions {
  headers?: (method: string, url: string) => Promise<Record<string, string>>;
  body?: (method: string, url: string, payload: object) => object;
}
let seeding: SeedOptions = {};

async function inject(method: 'POST', url: string, payload?: object) {
  const headers = (await seeding.headers?.(method, url)) ?? {};
  const body = payload && (seeding.body?.(method, url, payload) ?? payload);
  return gw.app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
}

/**
 * One record of each kind, named `sweep`, so that malformed bodies and queries reach the
 * handlers' own code instead of stopping at a 404. Answers the ids to fill path parameters with,
 * by `<path>` (parameters named `id`), `<path> <name>` or `<name>`.
 */
export async function seedSweep(
  gateway: GatewayUnderTest,
  documented: ReadonlyArray<{ path: string }>,
  options: SeedOptions = {},
): Promise<ReadonlyMap<string, string>> {
  gw = gateway;
  operations = documented;
  seeding = options;
  await seed();
  return ids;
}

async function seed() {
  const records: Array<[string, object]> = [
    ['/api/v1/ledger/events', { action: 'sweep' }],
    ['/api/v1/ledger/policies', { name: 'sweep', retentionDays: 30 }],
    ['/api/v1/ledger/sinks', { name: 'sweep', kind: 'syslog', host: '127.0.0.1', port: 514 }],
    [
      '/api/v1/ledger/classifications',
      { serviceId: 's', field: 'a', level: 'pii', justification: 'j' },
    ],
    ['/api/v1/catalog/systems', { name: 'sweep' }],
    [
      '/api/v1/catalog/owners',
      { name: 'sweep', members: ['owner@example.com', 'mate@example.com'] },
    ],
    ['/api/v1/catalog/services', { name: 'other' }],
    ['/api/v1/catalog/services', { name: 'sweep', system: 'sweep', owner: 'sweep' }],
    ['/api/v1/catalog/services/sweep/dependencies', { dependsOn: 'other' }],
    ['/api/v1/catalog/apis', { name: 'sweep', type: 'openapi' }],
    ['/api/v1/catalog/domains', { name: 'sweep' }],
    [
      '/api/v1/catalog/scorecards',
      {
        name: 'sweep',
        rules: [{ id: 'owner', kind: 'hasOwner' }],
        levels: [{ name: 'bronze', rules: ['owner'] }],
      },
    ],
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
    // Billing alerts only on channels an admin registered it on (seedBillingRegistration).
    ['/api/v1/billing/budgets', { name: 'sweep', amount: 100, period: 'month', channel: 'sweep' }],
    // Billing reads the catalog (service sweep, team sweep) for the target and shares' service.
    ['/api/v1/billing/owner-rules', { target: 'sweep', provider: 'sweep' }],
    [
      '/api/v1/billing/allocations',
      {
        name: 'sweep',
        selector: { catalogService: 'sweep' },
        method: 'fixed',
        shares: [{ service: 'sweep', percent: 100 }],
      },
    ],
  ];
  for (const [url, payload] of records) {
    if (url === '/api/v1/billing/budgets') await seedBillingRegistration();
    const res = await inject('POST', url, payload);
    if (res.statusCode >= 300) throw new Error(`seeding ${url}: ${res.body}`);
    ids.set(`${url}/{id}`, res.json().data.id);
  }
  await seedCatalogTemplate();
  await seedStage();
  await seedCommunication(ids.get('appId') as string);
  await seedInference();
  await seedGit();
  await seedPerson();
  await seedAnomaly();
}

/** The app `billing` registered on the channel `sweep`, as an admin does before budgets name it. */
async function seedBillingRegistration() {
  await gw.db.kysely
    .withSchema('communication')
    .insertInto('registrations' as never)
    .values({
      id: 'reg_sweepbill',
      app_id: 'billing',
      channel_id: ids.get('/api/v1/communication/channels/{id}'),
      target: '',
      metadata: '{}',
    } as never)
    .execute();
}

/**
 * A billing anomaly of the catalog service `sweep` (owner `sweep`), as its daily detection records
 * one (no route makes them), with the service in billing's copy of the catalog.
 */
async function seedAnomaly() {
  const service = ids.get('/api/v1/catalog/services/{id}') as string;
  const billing = gw.db.kysely.withSchema('billing');
  await billing
    .insertInto('catalog_services' as never)
    .values({ id: service, name: 'sweep', owner: 'sweep' } as never)
    .onConflict((oc) => oc.doNothing())
    .execute();
  const anomaly = { id: 'sweepanomaly', scope: 'service', key: service, day: '2026-01-01' };
  const figures = { expected: 1, actual: 200, size: 199, mad: 1 };
  await billing
    .insertInto('anomalies' as never)
    .values({ ...anomaly, ...figures } as never)
    .execute();
  for (const path of ['/api/v1/billing/anomalies/{id}', '/api/v1/billing/anomalies/{id}/dismiss'])
    ids.set(path, 'sweepanomaly');
}

/** The person `sweep`, as PostHog's capture makes one (it answers `{status: 1}`, no envelope). */
async function seedPerson() {
  const res = await inject('POST', '/api/v1/pulse/posthog/capture', {
    event: 'sweep',
    distinct_id: 'sweep',
  });
  if (res.statusCode >= 300) throw new Error(`seeding a person: ${res.body}`);
}

/** The template `sweep`: templates come from imports only. */
async function seedCatalogTemplate() {
  const template = { apiVersion: 'scaffolder.backstage.io/v1beta3', kind: 'Template' };
  await postData('/api/v1/catalog/import', {
    entities: [{ ...template, metadata: { name: 'sweep' }, spec: { type: 'service', steps: [] } }],
  });
}

/** A registration of the published app `sweep` (its owners' own), a delivery and a template. */
async function seedCommunication(sid: string) {
  const apps = `/api/v1/communication/apps/${sid}`;
  await postData(`${apps}/templates`, {
    name: 'sweep',
    category: 'sweep',
    schema: { type: 'object' },
    fallbackLocale: 'en',
    locales: { en: { subject: 'sweep', text: 'sweep' } },
  });
  const registration = await postData(`${apps}/channels`, { channelId: 'sweep', target: 'sweep' });
  ids.set('/api/v1/communication/apps/{appId}/channels/{id}', registration.id);
  const sent = await postData(`${apps}/send`, { channelId: 'sweep', text: 'sweep' });
  ids.set('/api/v1/communication/apps/{appId}/deliveries/{id}', sent.delivery.id);
}

async function postData(url: string, payload: object) {
  const res = await inject('POST', url, payload);
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
    const res = await inject('POST', `/api/v1/stage${url}`, payload);
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
  const run = await inject('POST', `/api/v1/run/${app.sid}/sweep`);
  if (run.statusCode !== 200) throw new Error(`seeding a workflow run: ${run.body}`);
  for (const { path } of operations)
    if (path.startsWith('/api/v1/stage/sessions/{id}')) ids.set(path, id);
  ids.set('snapshotId', snapshot.id);
  ids.set('runId', String(run.headers['x-workflow-run']));
  ids.set('spreadsheetId', run.json().data.spreadsheetId);
  ids.set('workflowName', 'sweep');
  ids.set('appId', app.sid);
}
