import { PassThrough } from 'node:stream';
import { SignJWT } from 'jose';
import { request } from 'undici';
import { authSettings, buildServiceApp, deriveKey, signIdentity, type App } from '@platform/core';
import { newApiKey } from '@platform/passport';
import { pulse } from '@platform/pulse';
import { deadUrl, listen, sleep } from '@platform/testing';
import { SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';
import { speaksClientShape } from './sweep-inputs';
import {
  AUTH,
  BASIC,
  BODY_KEY,
  BOOTSTRAP,
  CLIENT_SECRET,
  databaseDump,
  NOTHING_SIGNED_OUT,
  PAGES,
  PROXIED,
  PUBLIC,
  SESSION_SECRET,
  SIGN_IN,
  SIGNED,
} from './auth-expectations';

// Authentication on: every route of the merged OpenAPI document and every page, swept without
// credentials, with a valid key, with a revoked and an expired one; in-process, through a proxied
// standalone service, and at that service directly. Planted secrets are then looked for in every
// answer, log line and database row.

let gw: GatewayUnderTest;
let base: string;
let pulseUrl: string;
let standalone: App | undefined;
const logs: string[] = [];
const answers: string[] = [];

async function startStandalonePulse() {
  const app = await buildServiceApp(
    pulse,
    {
      database: gw.db,
      config: undefined,
      jobs: false,
      auth: authSettings(AUTH),
      platform: { url: base },
    },
    {},
  );
  const { port } = new URL(pulseUrl);
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  return app;
}

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  pulseUrl = await deadUrl();
  const features = Object.fromEntries(
    SERVICES.map((s) => [`FEATURE_${s.name.toUpperCase()}`, 'true']),
  );
  gw = await gatewayUnderTest(
    {
      ...AUTH,
      ...features,
      PLATFORM_API_KEY: BOOTSTRAP,
      PULSE_PROXY_URL: pulseUrl,
      GIT_WEBHOOK_SECRET: 'auth-test',
      // Live streams end after this (their end event): each GET is read to its end.
      STAGE_BACKEND_LOG_FOLLOW_MAX_MS: '100',
      COMMUNICATION_INBOX_STREAM_MAX_MS: '100',
    },
    { logStream: stream },
  );
  base = await listen(gw.app);
  standalone = await startStandalonePulse();
});
afterAll(async () => {
  await standalone?.close();
  await gw.close();
});

async function call(method: string, url: string, headers: Record<string, string> = {}) {
  const res = await request(`${base}${url}`, {
    method: method as 'GET',
    headers: ['POST', 'PUT', 'PATCH'].includes(method)
      ? { 'content-type': 'application/json', ...headers }
      : headers,
    body: ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined,
  });
  const body = await res.body.text();
  answers.push(body);
  return {
    status: res.statusCode,
    body,
    location: res.headers.location as string | undefined,
    challenge: res.headers['www-authenticate'] as string | undefined,
  };
}

const key = (value: string) => ({ 'x-api-key': value });

/** Every operation of the gateway's merged document, path parameters filled with `sweep`. */
async function operations() {
  const res = await call('GET', '/api/v1/openapi.json', key(BOOTSTRAP));
  expect(res.status).toBe(200);
  const document = JSON.parse(res.body) as {
    paths: Record<string, Record<string, { tags?: string[] }>>;
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      url: path.replace(/\{[^}]+\}/g, 'sweep'),
      clientShape: speaksClientShape(op),
    })),
  );
}

describe('with authentication on', () => {
  it('answers nothing but /healthz and /api/v1/features without credentials', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(60);
    expect(ops.some((o) => o.url.startsWith('/api/v1/passport/keys'))).toBe(true);
    for (const op of [...ops, { method: 'GET', url: '/api/v1/nowhere', clientShape: false }]) {
      const where = `${op.method} ${op.url}`;
      const res = await call(op.method, op.url);
      if (PUBLIC.has(where)) expect({ where, status: res.status }).toEqual({ where, status: 200 });
      else if (SIGNED.has(where))
        // Refused for want of a signature or signed token (or of the setting that checks it).
        expect({ where, status: SIGNED.get(where), success: JSON.parse(res.body).success }).toEqual(
          {
            where,
            status: res.status,
            success: false,
          },
        );
      else if (SIGN_IN.test(where)) {
        const revealsNothing =
          res.body === NOTHING_SIGNED_OUT ||
          (res.status >= 300 && !res.body.includes('"success":true'));
        expect({ where, revealsNothing, body: res.body.slice(0, 200) }).toEqual({
          where,
          revealsNothing: true,
          body: expect.any(String),
        });
      } else if (op.clientShape && !PROXIED.test(op.url)) {
        // The OpenAI and Anthropic SDKs' own shape (sweep-inputs.ts): still a 401. (Pulse is
        // proxied here: the gateway's own 401 in front of it is the envelope, as documented.)
        expect({ where, status: res.status, error: JSON.parse(res.body).error }).toEqual({
          where,
          status: 401,
          error: expect.objectContaining({ type: 'authentication_error' }),
        });
      } else {
        expect({ where, status: res.status, body: JSON.parse(res.body) }).toEqual({
          where,
          status: 401,
          body: {
            success: false,
            error: {
              code: 'UNAUTHORIZED',
              message: BASIC.test(op.url)
                ? 'Authentication required: HTTP Basic with a platform API key as the password'
                : BODY_KEY.test(op.url)
                  ? 'Authentication required: send an API key in the body (as the route documents) or in X-API-Key'
                  : 'Authentication required: sign in, or send an API key in X-API-Key',
            },
          },
        });
        // git prompts for credentials when a 401 says how to send them.
        if (BASIC.test(op.url)) expect(res.challenge).toMatch(/^Basic realm="platform"/);
      }
    }
    for (const page of PAGES) {
      const res = await call('GET', page);
      expect({ page, status: res.status, location: res.location }).toEqual({
        page,
        status: 302,
        location: `/api/v1/passport/login?returnTo=${encodeURIComponent(page)}`,
      });
    }
    expect((await call('GET', '/healthz')).status).toBe(200);
  });

  it('answers everything with a valid key, and tells handlers who is calling', async () => {
    for (const op of await operations()) {
      const where = `${op.method} ${op.url}`;
      if (SIGNED.has(where)) continue;
      const res = await call(op.method, op.url, key(BOOTSTRAP));
      expect({ where, authorized: res.status !== 401 && res.status !== 302 }).toEqual({
        where,
        authorized: true,
      });
    }
    for (const page of PAGES) {
      const res = await call('GET', page, key(BOOTSTRAP));
      // A page, or the API reference's own redirect to its index: never to sign in.
      expect({ page, served: res.status === 200 || !res.location?.includes('/login') }).toEqual({
        page,
        served: true,
      });
    }
    const me = JSON.parse((await call('GET', '/api/v1/passport/me', key(BOOTSTRAP))).body);
    expect(me.data).toMatchObject({ kind: 'key', keyId: expect.any(String) });
  });

  it('answers nothing to a revoked key, nor to an expired one', async () => {
    const created = async (body: object) => {
      const res = await request(`${base}/api/v1/passport/keys`, {
        method: 'POST',
        headers: { ...key(BOOTSTRAP), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.statusCode).toBe(201);
      return ((await res.body.json()) as { data: { id: string; key: string } }).data;
    };
    const revoked = await created({ name: 'revoked' });
    const expiring = await created({
      name: 'expiring',
      expiresAt: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await call('GET', '/api/v1/health', key(revoked.key))).status).toBe(200);
    expect((await call('GET', '/api/v1/health', key(expiring.key))).status).toBe(200);
    expect(
      (await call('DELETE', `/api/v1/passport/keys/${revoked.id}`, key(BOOTSTRAP))).status,
    ).toBe(200);
    await sleep(1600);
    const ops = await operations();
    for (const secret of [revoked.key, expiring.key]) {
      for (const op of [...ops, ...PAGES.map((url) => ({ method: 'GET', url }))]) {
        const where = `${op.method} ${op.url}`;
        if (PUBLIC.has(where) || SIGN_IN.test(where) || SIGNED.has(where)) continue;
        const res = await call(op.method, op.url, key(secret));
        const expected = op.url.startsWith('/api/') || BASIC.test(op.url) ? 401 : 302;
        expect({ where, status: res.status }).toEqual({ where, status: expected });
      }
    }
  });
});

describe('a proxied standalone service', () => {
  it('is reached through the gateway with a key, never without', async () => {
    const res = await call('POST', '/api/v1/pulse/events', key(BOOTSTRAP));
    expect(res.status).toBe(400); // the standalone service's own validation: it was reached
    const event = await request(`${base}/api/v1/pulse/events`, {
      method: 'POST',
      headers: { ...key(BOOTSTRAP), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'through-the-proxy' }),
    });
    expect(event.statusCode).toBe(201);
    expect(event.headers['x-served-by']).toBeUndefined();
    expect((await call('GET', '/api/v1/pulse/events')).status).toBe(401);
  });

  it('refuses direct requests without a valid identity or key', async () => {
    const direct = async (headers: Record<string, string>) =>
      (await request(`${pulseUrl}/api/v1/pulse/events`, { headers })).statusCode;
    expect(await direct({})).toBe(401);
    const forged = await signIdentity('another-secret-of-at-least-32-chars!!', {
      kind: 'service',
      name: 'gateway',
    });
    expect(await direct({ 'x-platform-identity': forged })).toBe(401);
    const expired = await new SignJWT({ identity: { kind: 'service', name: 'gateway' } })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('platform')
      .setAudience('platform-services')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(deriveKey(SESSION_SECRET, 'identity token'));
    expect(await direct({ 'x-platform-identity': expired })).toBe(401);
    const valid = await signIdentity(SESSION_SECRET, { kind: 'service', name: 'gateway' });
    expect(await direct({ 'x-platform-identity': valid })).toBe(200);
    // An API key is checked with the identity service, through PLATFORM_URL.
    expect(await direct(key(BOOTSTRAP))).toBe(200);
    expect(await direct(key(newApiKey()))).toBe(401);
    expect((await request(`${pulseUrl}/api/v1/pulse/healthz`)).statusCode).toBe(200);
  });

  it('falls back in-process with the identity checked there too', async () => {
    await standalone?.close();
    standalone = undefined;
    const res = await request(`${base}/api/v1/pulse/events`, { headers: key(BOOTSTRAP) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-served-by']).toBe('in-process-fallback');
    await res.body.dump();
    expect((await call('GET', '/api/v1/pulse/events')).status).toBe(401);
  });
});

describe('planted secrets', () => {
  it('appear in no answer, no log line and no database row', async () => {
    const planted = [BOOTSTRAP, SESSION_SECRET, CLIENT_SECRET];
    const dump = await databaseDump(gw.db);
    expect(answers.length).toBeGreaterThan(100);
    expect(logs.length).toBeGreaterThan(10);
    for (const secret of planted) {
      expect(answers.filter((a) => a.includes(secret))).toEqual([]);
      expect(logs.filter((l) => l.includes(secret))).toEqual([]);
      expect(dump.includes(secret)).toBe(false);
    }
  });
});
