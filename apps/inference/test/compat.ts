import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUTH_ENV } from '@platform/testing';
import { fakeProvider, gateway, json } from './fakes';

// The compatible APIs' tests (issue 34): the service behind a stand-in passport.

/**
 * The identity service as a standalone service asks it about an API key
 * (`GET /api/v1/passport/me` with X-API-Key, see remoteKeyResolver): `keys` maps each key to the
 * key identity it stands for; any other key is a 401 there.
 */
export async function fakePassport(
  keys: Record<string, { scopes: string[]; role?: 'viewer' | 'member' | 'admin' }>,
) {
  const server = createServer((req, res) => {
    const key = req.headers['x-api-key'];
    const found = typeof key === 'string' ? keys[key] : undefined;
    if (req.url !== '/api/v1/passport/me' || !found) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return void res.end(
        JSON.stringify({ success: false, error: { code: 'UNAUTHORIZED', message: 'no' } }),
      );
    }
    const { scopes, role = 'member' } = found;
    const identity = { kind: 'key', keyId: `k-${key}`, name: `key ${key}`, role, scopes };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, data: { ...identity, owner: 'a@b.c', team: null } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * The service with authentication on (keys checked by `fakePassport`: pk-admin, pk-invoke with
 * inference:invoke, pk-read with inference:read only), one attempt per call, and `providers`
 * (name, type, default model) all pointing at one fake provider (keys INFERENCE_KEY_<NAME>).
 */
export async function compatGateway(providers: Array<[string, string, string]>) {
  const fake = await fakeProvider(json(500, { error: { message: 'nothing queued' } }));
  const passport = await fakePassport({
    'pk-admin': { scopes: ['admin'], role: 'admin' },
    'pk-invoke': { scopes: ['inference:invoke'] },
    'pk-read': { scopes: ['inference:read'] },
  });
  const keys = Object.fromEntries(
    providers.map(([name]) => [`INFERENCE_KEY_${name.toUpperCase()}`, `sk-${name}`]),
  );
  const gw = await gateway({
    ...AUTH_ENV,
    PLATFORM_URL: passport.url,
    INFERENCE_BASE_URLS: fake.url,
    INFERENCE_MAX_ATTEMPTS: '1',
    ...keys,
  });
  const admin = { 'x-api-key': 'pk-admin' };
  for (const [name, type, defaultModel] of providers) {
    const keyed = type === 'mock' ? {} : { envVar: `INFERENCE_KEY_${name.toUpperCase()}` };
    const made = await gw.call(
      'POST',
      '/providers',
      { name, type, defaultModel, ...keyed, ...(type === 'mock' ? {} : { baseUrl: fake.url }) },
      admin,
    );
    if (made.status !== 201) throw new Error(`provider ${name}: ${JSON.stringify(made.body)}`);
  }
  return {
    fake,
    gw,
    admin,
    /** The JSON body the fake provider got in its `i`th request. */
    sent: (i: number) => JSON.parse(fake.seen[i].body),
    close: async () => {
      await gw.svc.close();
      await fake.close();
      await passport.close();
    },
  };
}

/** The error a promise fails with (the test fails when it does not). */
export async function failure<E = Error>(promise: Promise<unknown>): Promise<E> {
  try {
    await promise;
  } catch (error) {
    return error as E;
  }
  throw new Error('expected a failure');
}
