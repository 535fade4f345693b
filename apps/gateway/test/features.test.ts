import { SERVICES } from '../src/index';
import { gatewayUnderTest, type GatewayUnderTest } from './helpers';

let gw: GatewayUnderTest;
afterEach(() => gw?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  gw.app.inject({ method: 'GET', url, headers });
/** The aggregated health's entry for one service (undefined when the service is absent). */
const healthOf = async (name: string) =>
  (await get('/api/v1/health')).json().data.services.find((s: { name: string }) => s.name === name);

describe('feature flags', () => {
  it('keeps experimental services (git) off unless switched on', async () => {
    expect(SERVICES.filter((s) => s.experimental).map((s) => s.name)).toEqual(['git']);
    gw = await gatewayUnderTest();
    expect((await get('/api/v1/features/git')).json().data).toMatchObject({
      enabled: false,
      source: 'default',
      default: false,
    });
    expect((await get('/api/v1/git/providers')).statusCode).toBe(404);
    expect(await healthOf('git')).toBeUndefined();
    await gw.app.inject({ method: 'PUT', url: '/api/v1/features/git', payload: { enabled: true } });
    expect((await get('/api/v1/git/providers')).statusCode).toBe(200);
  });

  it('reports each flag with its state and source', async () => {
    gw = await gatewayUnderTest();
    expect((await get('/api/v1/features')).json().data).toEqual(
      SERVICES.map((s) => ({
        name: s.name,
        enabled: !s.experimental,
        source: 'default',
        default: !s.experimental,
        env: null,
        override: null,
      })),
    );
  });

  it('leaves a service disabled by FEATURE_<NAME> absent from routing, health, docs and the web', async () => {
    gw = await gatewayUnderTest({ FEATURE_PULSE: 'false' });
    const res = await get('/api/v1/pulse/events');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({
      code: 'NOT_FOUND',
      message: 'Route GET /api/v1/pulse/events not found',
    });
    expect(await healthOf('pulse')).toBeUndefined();
    expect(
      Object.keys((await get('/api/v1/openapi.json')).json().paths).some((p) =>
        p.startsWith('/api/v1/pulse'),
      ),
    ).toBe(false);
    expect((await get('/pulse/')).body).toContain('<title>Platform</title>');
    expect((await get('/api/v1/features/pulse')).json().data).toMatchObject({
      enabled: false,
      source: 'env',
      env: false,
    });
  });

  it('switches a service off and on at runtime, and keeps the override across a restart', async () => {
    gw = await gatewayUnderTest();
    const put = (enabled: unknown) =>
      gw.app.inject({ method: 'PUT', url: '/api/v1/features/pulse', payload: { enabled } });

    expect((await put(false)).json().data).toMatchObject({
      enabled: false,
      source: 'override',
      override: false,
    });
    const absent = await gw.app.inject({
      method: 'POST',
      url: '/api/v1/pulse/events',
      payload: { name: 'x' },
    });
    expect(absent.statusCode).toBe(404);
    expect(absent.json().error.message).toBe('Route POST /api/v1/pulse/events not found');
    expect(await healthOf('pulse')).toBeUndefined();

    // A second gateway on the same database starts with the override in force.
    const again = await gatewayUnderTest({}, { db: gw.db });
    expect(
      (await again.app.inject({ method: 'GET', url: '/api/v1/pulse/events' })).statusCode,
    ).toBe(404);
    await again.app.close();

    expect((await put(true)).json().data).toMatchObject({ enabled: true, source: 'override' });
    expect((await get('/api/v1/pulse/events')).statusCode).toBe(200);

    const cleared = await gw.app.inject({ method: 'DELETE', url: '/api/v1/features/pulse' });
    expect(cleared.json().data).toMatchObject({ enabled: true, source: 'default', override: null });
  });

  it('lets an override beat the environment, and clearing it restores the environment', async () => {
    gw = await gatewayUnderTest({ FEATURE_PULSE: 'false' });
    await gw.app.inject({
      method: 'PUT',
      url: '/api/v1/features/pulse',
      payload: { enabled: true },
    });
    expect((await get('/api/v1/pulse/events')).statusCode).toBe(200);
    await gw.app.inject({ method: 'DELETE', url: '/api/v1/features/pulse' });
    expect((await get('/api/v1/features/pulse')).json().data).toMatchObject({
      enabled: false,
      source: 'env',
    });
  });

  it('rejects an unknown flag and a bad body', async () => {
    gw = await gatewayUnderTest();
    const unknown = await gw.app.inject({
      method: 'PUT',
      url: '/api/v1/features/nope',
      payload: { enabled: true },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toEqual({ code: 'NOT_FOUND', message: 'Feature not found: nope' });
    const bad = await gw.app.inject({
      method: 'PUT',
      url: '/api/v1/features/pulse',
      payload: { enabled: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('enabled must be true or false');
    expect((await get('/api/v1/features/pulse')).json().data.source).toBe('default');
  });

  it('refuses to start without a dashboard to fall back to', async () => {
    await expect(gatewayUnderTest({ PUBLIC_DIR: __dirname })).rejects.toThrow(
      `No index.html in ${__dirname} (check PUBLIC_DIR)`,
    );
  });

  it('refuses to start on a malformed flag value, naming the variable', async () => {
    await expect(gatewayUnderTest({ FEATURE_PULSE: 'maybe' })).rejects.toThrow(
      'Invalid configuration: FEATURE_PULSE must be true or false, got "maybe"',
    );
  });
});

describe('health when a database is down', () => {
  it('reports the service unhealthy and the aggregate degraded, without hanging', async () => {
    gw = await gatewayUnderTest();
    await gw.db.close();
    const res = await get('/api/v1/health');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'degraded',
      services: SERVICES.filter((s) => !s.experimental).map((s) => ({
        name: s.name,
        status: 'unhealthy',
        via: 'in-process',
        error: expect.stringContaining(`${s.name}: database unreachable`),
      })),
    });
    const own = await get('/api/v1/pulse/healthz');
    expect(own.statusCode).toBe(503);
    expect(own.json().error.code).toBe('SERVICE_UNAVAILABLE');
  });
});
