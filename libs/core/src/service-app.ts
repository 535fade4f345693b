import swagger from '@fastify/swagger';
import { createApp, type App, type AppOptions } from './app.js';
import { recordAccess } from './auth/index.js';
import { openApiInfo } from './openapi.js';
import { recordTemplates } from './metrics.js';
import type { MountOptions, ServiceManifest } from './service.js';

/**
 * One service on its own Fastify instance, under its usual prefix: the standalone server, the
 * gateway's in-process fallback for a proxied service, and the tests all use this.
 */
export async function buildServiceApp<Config>(
  manifest: ServiceManifest<Config>,
  mount: MountOptions<Config>,
  options: AppOptions = {},
): Promise<App> {
  const hostRoutes = manifest.hosts?.(mount.config) ?? [];
  // Behind the gateway, which sets X-Forwarded-Host to the host it was asked for.
  const app = createApp({ trustForwardedHost: true, ...options, hostRoutes });
  // Each route's declaration, as the gateway's proxy asks it of its in-process copy.
  recordAccess(app);
  // Each route's template, as the gateway's metrics label a request it forwarded (metrics.ts).
  recordTemplates(app);
  await app.register(swagger, openApiInfo(manifest.title, manifest.version));
  await app.register(manifest.plugin, mount);
  await app.ready();
  return app;
}
