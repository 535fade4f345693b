import { join } from 'node:path';
import {
  authSettings,
  createApp,
  named,
  onceFor,
  type App,
  type Env,
  type MountOptions,
  type ServiceManifest,
} from '@platform/core';
import { migrateSchema, type PlatformDatabase } from '@platform/db';
import { testDatabase, type DatabasePreset } from './database.js';

export interface ServicesUnderTest {
  /** One app serving every service under its prefix. */
  app: App;
  db: PlatformDatabase;
  /** Switches a service off (it answers as an absent one: the 404 of an unknown route) or on. */
  setEnabled(name: string, enabled: boolean): void;
  /** Makes a service wait this long before it handles each request (0: answer at once). */
  setDelay(name: string, ms: number): void;
  close(): Promise<void>;
}

const presets = new WeakMap<readonly ServiceManifest[], DatabasePreset>();

/** A database with these services' migrations run, made once per machine and copied per test. */
const migratedServices = (manifests: readonly ServiceManifest[]): DatabasePreset =>
  onceFor(presets, manifests, () => ({
    name: `services-${manifests.map((m) => m.name).join('-')}`,
    sources: [
      ...manifests.map((m) => join(m.webRoot, '../../src')),
      join(__dirname, '../../db/src'),
    ],
    prepare: async (db) => {
      for (const m of manifests) await migrateSchema(db, m.name, m.migrations);
    },
  }));

/**
 * Several services in one app on one fresh database, as the gateway mounts them but without it
 * (no web UIs, no proxy, no gateway routes): each service's platform client reaches the others
 * in-process through this app, and each checks the identities it is sent itself (sign them with
 * `identityHeaders`). `setEnabled` switches one off and on as the gateway's feature flag does;
 * `setDelay` makes one slow.
 * Pass `manifests` as one constant array: its database preset is kept per array.
 */
export async function servicesUnderTest(
  manifests: readonly ServiceManifest[],
  options: { env?: Env; jobs?: MountOptions['jobs'] } = {},
): Promise<ServicesUnderTest> {
  const env = options.env ?? {};
  const database = await testDatabase(migratedServices(manifests));
  const off = new Set<string>();
  const delays = new Map<string, number>();
  const app = createApp({ trustForwardedHost: true });
  try {
    for (const manifest of manifests)
      await app.register(
        named(async (scope) => {
          scope.addHook('onRequest', (_request, reply, done) => {
            if (off.has(manifest.name)) return reply.callNotFound();
            const delay = delays.get(manifest.name) ?? 0;
            if (delay > 0) setTimeout(done, delay);
            else done();
          });
          await scope.register(manifest.plugin, {
            database,
            config: manifest.config(env),
            jobs: options.jobs ?? false,
            auth: authSettings(env),
            platform: { app: () => app },
          });
        }),
      );
    await app.ready();
  } catch (error) {
    await app.close();
    await database.close();
    throw error;
  }
  return {
    app,
    db: database,
    setEnabled: (name, enabled) => void (enabled ? off.delete(name) : off.add(name)),
    setDelay: (name, ms) => void delays.set(name, ms),
    async close() {
      await app.close();
      await database.close();
    },
  };
}
