import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  AUTH_VARIABLES,
  SERVER_VARIABLES,
  STANDALONE_VARIABLES,
  standaloneConfig,
  type ServiceManifest,
} from '@platform/core';
import { GATEWAY_VARIABLES, SERVICES, gatewayConfig } from '../src/index';

const root = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface ComposeService {
  build?: { context: string; dockerfile: string };
  image?: string;
  environment?: Record<string, string>;
  expose?: string[];
  ports?: string[];
  depends_on?: Record<string, unknown>;
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
/** What compose makes of `${VAR:-default}` when VAR is not set on the host. */
const interpolated = (env: Record<string, string> = {}) =>
  Object.fromEntries(
    Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{\w+:-([^}]*)\}/g, '$1')]),
  );

/** Which variables a config reader looks at, by handing it an environment that records reads. */
function variablesRead(readConfig: (env: Record<string, string | undefined>) => unknown): string[] {
  const seen = new Set<string>();
  readConfig(new Proxy({}, { get: (_t, key) => (seen.add(String(key)), undefined) }));
  return [...seen].sort();
}

// A family of variables (`CHANNEL_*`) is read by enumerating the environment, and one a record
// names (`<provider envVar>`) when it is used: neither by a name known in advance.
const byName = (v: { name: string }) => !v.name.endsWith('*') && !/^<[a-z]/.test(v.name);
/** The names declared, once each (PUBLIC_URL is the identity service's and the sandbox's). */
const documented = (list: ReadonlyArray<{ name: string }>, names: string[]) => [
  ...new Set(
    list
      .filter(byName)
      .flatMap((v) =>
        v.name.includes('<NAME>')
          ? names.map((n) => v.name.replace('<NAME>', n.toUpperCase()))
          : [v.name],
      )
      .sort(),
  ),
];

const serviceVariables = SERVICES.flatMap((s) => s.variables ?? []);
const standaloneVariables = (service: ServiceManifest) =>
  [...SERVER_VARIABLES, ...AUTH_VARIABLES, ...STANDALONE_VARIABLES, ...(service.variables ?? [])]
    .filter(byName)
    .map((v) => v.name)
    .sort();

/** The apps that run as servers (a `start` script): the gateway and the services, not the CLI. */
const apps = readdirSync(join(root, 'apps')).filter((dir) => {
  const manifest = join(root, 'apps', dir, 'package.json');
  return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).scripts?.start;
});

describe('docker-compose.yml', () => {
  it('has PostgreSQL and one container per app, each built from its own Dockerfile', () => {
    expect(compose.services.postgres.image).toMatch(/^postgres:15/);
    for (const app of apps) {
      const service = compose.services[app];
      expect(service?.build).toEqual({ context: '.', dockerfile: `apps/${app}/Dockerfile` });
      expect(existsSync(join(root, 'apps', app, 'Dockerfile'))).toBe(true);
    }
    expect(Object.keys(compose.services).sort()).toEqual(['postgres', ...apps].sort());
  });

  it.each(apps)(
    'runs %s on the port its Dockerfile exposes, with the entry point it builds',
    (app) => {
      const dockerfile = read(`apps/${app}/Dockerfile`);
      const port = Number(/^EXPOSE (\d+)$/m.exec(dockerfile)?.[1]);
      const service = compose.services[app];
      expect(Number(service.environment?.PORT)).toBe(port);
      expect(
        [...(service.expose ?? []), ...(service.ports ?? []).map((p) => p.split(':')[1])].map(
          Number,
        ),
      ).toContain(port);
      // OpenTelemetry's SDK preloaded (it does nothing unless OTEL_EXPORTER_OTLP_ENDPOINT is set).
      expect(dockerfile).toMatch(
        new RegExp(
          `^CMD \\["node", ("--require", "\\./libs/core/dist/tracing-preload\\.js", )?"apps/${app}/dist/main\\.js"\\]$`,
          'm',
        ),
      );
      expect(dockerfile).toMatch(new RegExp(`npx tsc -b apps/${app}\\b`));
      const manifest = SERVICES.find((s) => s.name === app);
      expect(port).toBe(manifest ? manifest.defaultPort : 3000);
    },
  );

  it('points every service and the gateway at the postgres container', () => {
    for (const app of apps) {
      expect(compose.services[app].environment?.DATABASE_URL).toMatch(
        /^postgres:\/\/[^@]+@postgres:5432\//,
      );
      expect(compose.services[app].depends_on).toHaveProperty('postgres');
    }
  });

  it('sends the gateway to each service through <NAME>_PROXY_URL', () => {
    const env = compose.services.gateway.environment ?? {};
    for (const service of SERVICES) {
      expect(env[`${service.name.toUpperCase()}_PROXY_URL`]).toBe(
        `http://${service.name}:${service.defaultPort}`,
      );
    }
    expect(gatewayConfig(SERVICES, interpolated(env)).proxies).toEqual(
      Object.fromEntries(SERVICES.map((s) => [s.name, `http://${s.name}:${s.defaultPort}`])),
    );
  });

  it('sets only variables the apps read, with values they accept', () => {
    const gatewayVars = documented(
      [...GATEWAY_VARIABLES, ...serviceVariables],
      SERVICES.map((s) => s.name),
    );
    for (const name of Object.keys(compose.services.gateway.environment ?? {}))
      expect(gatewayVars).toContain(name);
    for (const service of SERVICES) {
      const env = compose.services[service.name].environment ?? {};
      for (const name of Object.keys(env)) expect(standaloneVariables(service)).toContain(name);
      expect(() => standaloneConfig(service, interpolated(env))).not.toThrow();
    }
  });
});

describe('configuration documentation', () => {
  it('lists exactly the variables the gateway and the services read', () => {
    const names = SERVICES.map((s) => s.name);
    expect(variablesRead((env) => gatewayConfig(SERVICES, env))).toEqual(
      documented([...GATEWAY_VARIABLES, ...serviceVariables], names),
    );
    for (const service of SERVICES)
      expect(variablesRead((env) => standaloneConfig(service, env))).toEqual(
        standaloneVariables(service),
      );
  });

  it('has a row for each of them in the README', () => {
    const readme = read('README.md');
    for (const variable of [
      ...GATEWAY_VARIABLES,
      ...SERVER_VARIABLES,
      ...AUTH_VARIABLES,
      ...STANDALONE_VARIABLES,
      ...serviceVariables,
    ])
      expect(readme).toContain(`| \`${variable.name}\``);
  });
});
