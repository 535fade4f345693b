import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AccessDocument, Identity } from '@platform/core';
import { sql } from '@platform/db';
import { AUTH_ENV, CALLERS, identityHeaders, keyCaller, person } from '@platform/testing';
import { SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';
import { seedSweep } from './sweep-seeds';
import type { Document, Operation } from './sweep-inputs';

// Issue 31: every operation of the OpenAPI document, called by every kind of caller, answers as
// its documented rule (`x-access`) says: the policy's 401 or 403 exactly where the table denies,
// never where it allows. The records the operations name belong to `owner`, in team payments.

type Documented = Operation & { 'x-access': AccessDocument };
const document = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'libs', 'client', 'openapi.json'), 'utf8'),
) as Document;
// Deletes last, those of parts before those of wholes: until then every record exists.
const operations = Object.entries(document.paths)
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      path,
      method: method.toUpperCase(),
      op: op as Documented,
    })),
  )
  .sort(
    (a, b) =>
      Number(a.method === 'DELETE') - Number(b.method === 'DELETE') ||
      (a.method === 'DELETE' ? b.path.length - a.path.length : 0),
  );

const TEAM = 'payments';
const OWNER = 'owner@example.com';
/** The owner of every record, in the team that records name too (by its groups claim). */
const owner = person(OWNER, 'member', [TEAM]);

/** The callers, in the order each operation is called: those it may deny first. */
function callersOf(access: AccessDocument): Array<[string, Identity | undefined]> {
  const scope = access.scope ?? 'pulse:read';
  const other = scope.startsWith('pulse:') ? 'catalog:write' : 'pulse:write';
  return [
    ['anonymous', undefined],
    ['viewer', CALLERS.viewer],
    ['stranger', CALLERS.stranger],
    ['key without the scope', keyCaller([other], { role: 'admin', owner: OWNER })],
    ['team member', CALLERS.teamMate],
    ['owner', owner],
    [
      'key with the scope',
      keyCaller([scope], { role: access.rule === 'admin' ? 'admin' : 'member', owner: OWNER }),
    ],
    ['admin', CALLERS.admin],
  ];
}

/** Records with no team (a call's log, a sign-in): their owner's team mates are strangers to them. */
const TEAMLESS = new Set(['/api/v1/inference/requests/{id}', '/api/v1/passport/sessions/{id}']);
/** Operations whose record is named in the body: the body names the seeded one. */
const BODIES: Record<string, () => object> = {
  'POST /api/v1/stage/apps': () => ({ sessionId: ids.get('/api/v1/stage/sessions/{id}/status') }),
  'POST /api/v1/studio/sessions': () => ({ appSid: ids.get('appId') }),
};

/** Whether the table lets this caller through (the records it names exist and are owner's). */
function allowed(caller: string, access: AccessDocument, path: string): boolean {
  if (caller === 'team member' && TEAMLESS.has(path) && access.rule === 'owner') return false;
  const { rule, action } = access;
  if (rule === 'public') return true;
  if (caller === 'anonymous') return false;
  // A route needing no scope (who a key is) lets any key through; else the key lacks it.
  if (caller === 'key without the scope') return access.scope === null;
  if (caller === 'admin') return true;
  if (rule === 'admin') return caller === 'key with the scope';
  const writes = action !== 'read';
  const owns = ['owner', 'team member', 'key with the scope'].includes(caller);
  if (rule === 'viewer') return true;
  if (rule === 'member') return caller !== 'viewer';
  return owns && !(writes && caller === 'viewer');
}

let gw: GatewayUnderTest;
let ids: ReadonlyMap<string, string>;
let sessionId: string;
beforeAll(async () => {
  const features = Object.fromEntries(
    SERVICES.map((s) => [`FEATURE_${s.name.toUpperCase()}`, 'true']),
  );
  gw = await gatewayUnderTest({
    ...features,
    ...AUTH_ENV,
    GIT_WEBHOOK_SECRET: 'sweep',
    RATE_LIMIT_MAX: '0',
    LEDGER_RETENTION_INTERVAL_MS: '0',
    // Live streams (logs, the inbox) end after this (their end event): the sweep reads every GET
    // to its end.
    STAGE_BACKEND_LOG_FOLLOW_MAX_MS: '100',
    COMMUNICATION_INBOX_STREAM_MAX_MS: '100',
  });
  // Admins make the platform's configuration, and the team records (their members list is theirs).
  const byRule = (method: string, url: string) =>
    ruleOf(method, url) === 'admin' || url.endsWith('/catalog/owners');
  ids = await seedSweep(
    gw,
    operations.map(({ path }) => ({ path })),
    {
      headers: async (method, url) =>
        (await identityHeaders(byRule(method, url) ? CALLERS.admin : owner)) as Record<
          string,
          string
        >,
      body: (method, url, payload) =>
        acceptsTeam(method, url) ? { ...payload, team: TEAM } : payload,
    },
  );
  sessionId = await seedSession();
});
afterAll(() => gw.close());

/** A session of the owner's (signing in is the identity provider's: the row is made directly). */
async function seedSession() {
  await sql`insert into passport.sessions (id, token_hash, email, name, subject, expires_at)
    values ('sweepses', 'sweep', ${OWNER}, 'Owner', 'owner', now() + interval '1 day')`.execute(
    gw.db.kysely,
  );
  return 'sweepses';
}

/** The documented operation a concrete URL is an instance of. */
function operationAt(method: string, url: string) {
  const path = url.split('?')[0];
  return operations.find(
    (o) =>
      o.method === method && new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
}
const ruleOf = (method: string, url: string) => operationAt(method, url)?.op['x-access'].rule;
const acceptsTeam = (method: string, url: string) => {
  const body = operationAt(method, url)?.op.requestBody as
    { content?: Record<string, { schema?: { properties?: object } }> } | undefined;
  return 'team' in (body?.content?.['application/json']?.schema?.properties ?? {});
};

const sampleId = (name: string, path: string) =>
  (path === '/api/v1/passport/sessions/{id}' && sessionId) ||
  ids.get(`${path} ${name}`) ||
  ((name === 'id' || name === 'idOrName') && ids.get(path)) ||
  ids.get(name) ||
  { name: 'pulse', dependsOn: 'other', path: 'app/main.ts', email: 'bob@example.com' }[name] ||
  'sweep';

const fill = (path: string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(sampleId(name, path)));

/** What the policy answered, if it was the policy that answered. */
function verdict(status: number, body: string): 'denied' | 'unauthenticated' | 'passed' {
  if (status === 401 && body.includes('Authentication required')) return 'unauthenticated';
  if (status === 403 && / may not .+: it needs /.test(body)) return 'denied';
  return 'passed';
}

it('answers every operation to every caller as the access table says', async () => {
  const mismatches: string[] = [];
  const counts = { calls: 0, denied: 0, passed: 0 };
  for (const { path, method, op } of operations) {
    const access = op['x-access'];
    expect({ path, method, access: !!access }).toEqual({ path, method, access: true });
    const query = (op.parameters ?? []).some((p) => p.in === 'query' && p.required)
      ? '?path=%2Fapp%2Fmain.ts&user=owner%40example.com'
      : '';
    const url = fill(path) + query;
    for (const [caller, identity] of callersOf(access)) {
      const body = ['POST', 'PUT', 'PATCH'].includes(method);
      const res = await gw.app.inject({
        method: method as 'GET',
        url,
        headers: {
          ...(await identityHeaders(identity)),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { payload: JSON.stringify(BODIES[`${method} ${path}`]?.() ?? {}) } : {}),
      });
      const got = verdict(res.statusCode, res.body);
      const expected = allowed(caller, access, path)
        ? 'passed'
        : caller === 'anonymous'
          ? 'unauthenticated'
          : 'denied';
      counts.calls += 1;
      counts[got === 'passed' ? 'passed' : 'denied'] += 1;
      if (got !== expected)
        mismatches.push(
          `${method} ${path} as ${caller} (${access.rule}): expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 160)}`,
        );
    }
  }
  expect(mismatches).toEqual([]);
  expect(counts.calls).toBeGreaterThan(1500);
  // The closing note quotes these.
  console.log(`access sweep: ${JSON.stringify(counts)}`);
  // Over 2,000 calls (every operation as eight callers): 20-30 s on PostgreSQL beside other work.
}, 120_000);
