import { newApiKey } from '@platform/passport';
import { sql, type PlatformDatabase } from '@platform/db';
import { SERVICES } from '../src/index';

// What auth.test.ts expects of each kind of route with authentication on, and its planted secrets.

export const SESSION_SECRET = 'planted-session-secret-0123456789-abcdefgh';
export const CLIENT_SECRET = 'planted-oidc-client-secret-4242';
export const BOOTSTRAP = newApiKey();
export const AUTH = {
  OIDC_ISSUER: 'http://127.0.0.1:9/',
  OIDC_CLIENT_ID: 'platform',
  OIDC_CLIENT_SECRET: CLIENT_SECRET,
  SESSION_SECRET,
};

// A service's health is public wherever it runs, as the gateway's own.
export const PUBLIC = new Set([
  'GET /healthz',
  'GET /api/v1/features',
  ...SERVICES.map((s) => `GET ${s.prefix}/healthz`),
]);
// The identity service's sign-in routes take no credentials, by nature; they answer no data
// (logout too, so that a browser whose session lapsed can still clear its cookie).
export const SIGN_IN =
  /^(GET \/api\/v1\/passport\/(login|callback|providers\/callback)|POST \/api\/v1\/passport\/logout)$/;
// Webhook deliveries authenticate by their signature, unsubscribe links by their signed token,
// not by a platform credential: without one, the status each answers.
export const SIGNED = new Map([
  ['POST /api/v1/git/webhooks/receive', 401],
  ['POST /api/v1/stage/hooks/sweep', 401],
  // Unset COMMUNICATION_EVENTS_SECRET: 409 NOT_CONFIGURED before any signature.
  ['POST /api/v1/communication/provider-events', 409],
  // No token: 400 naming it.
  ['GET /api/v1/communication/unsubscribe', 400],
  ['POST /api/v1/communication/unsubscribe', 400],
]);
// git's smart HTTP takes the key as HTTP Basic: without one, a 401 asking for it (no redirect).
export const BASIC = /^\/git\//;
// PostHog's start-up calls answer fixed settings to anyone (posthog-js asks before any event).
for (const path of ['POST /api/v1/pulse/posthog/flags', 'POST /api/v1/pulse/posthog/decide'])
  PUBLIC.add(path);
PUBLIC.add('GET /api/v1/pulse/posthog/array/sweep/config');
// PostHog's and Segment's ingestion take the key in the body too (as their libraries send it).
export const BODY_KEY = /^\/api\/v1\/pulse\/(posthog|segment)\//;
// The services this test runs standalone behind the gateway's proxy.
export const PROXIED = /^\/api\/v1\/pulse\//;
export const NOTHING_SIGNED_OUT = '{"success":true,"data":{"signedOut":false}}';
export const PAGES = [
  '/',
  '/docs',
  '/docs/static/index.html',
  '/ledger/',
  '/pulse/a/deep/link',
  '/x',
];

/** Every row of every table of every schema, as text. */
export async function databaseDump(db: PlatformDatabase) {
  const { rows: tables } = await sql<{ schema: string; name: string }>`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE'`.execute(
    db.kysely,
  );
  expect(tables.some((t) => t.schema === 'passport')).toBe(true);
  let dump = '';
  for (const { schema, name } of tables) {
    const { rows } = await sql<{ row: string }>`
      select t::text as row from ${sql.table(`${schema}.${name}`)} t`.execute(db.kysely);
    dump += rows.map((r) => r.row).join('\n');
  }
  return dump;
}
