import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { named, notFoundHandler, type App, type ServiceManifest } from '@platform/core';
import type { FeatureFlags } from './features.js';

const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/**
 * What answers when no route matched (spec 1.3-1.5): under /api a JSON 404 envelope, never HTML;
 * /<service>/... of an enabled service its index.html (client-side routing); anything else the
 * dashboard.
 */
export function webFallback(
  publicDir: string,
  services: readonly ServiceManifest[],
  flags: FeatureFlags,
  /** Prefixes of hosts the services claim (their content origins): 404 there, never a UI. */
  hostPrefixes: readonly string[] = [],
) {
  // Every fallback ends in an index.html: a missing one is a broken install, not a 404 to serve.
  for (const dir of [publicDir, ...services.map((s) => s.webRoot)]) {
    if (!existsSync(join(dir, 'index.html')))
      throw new Error(`No index.html in ${dir} (check PUBLIC_DIR)`);
  }
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    const claimed = hostPrefixes.some((p) => path === p || path.startsWith(`${p}/`));
    if (isApi(path) || claimed || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return notFoundHandler(request, reply);
    }
    const first = path.split('/')[1];
    const service = services.find((s) => s.name === first);
    if (service && flags.isEnabled(service.name))
      return reply.sendFile('index.html', service.webRoot);
    return reply.sendFile('index.html', publicDir);
  };
}

/** The dashboard at / and each service's web UI at /<name>/, while its flag is on. */
export async function registerWeb(
  app: App,
  publicDir: string,
  services: readonly ServiceManifest[],
  flags: FeatureFlags,
) {
  // An unmatched API path (an unknown route, or a parameter too long for its route) ends here,
  // never in the web UIs' wildcard: the JSON 404 or 414 envelope.
  app.all('/api/*', { schema: { hide: true } }, notFoundHandler);
  await app.register(fastifyStatic, {
    root: publicDir,
    prefix: '/',
    wildcard: true,
    index: 'index.html',
  });
  for (const service of services) {
    await app.register(
      named(async (scope) => {
        scope.addHook('onRequest', async (_request, reply) => {
          if (flags.isEnabled(service.name)) return;
          reply.callNotFound();
          return reply;
        });
        await scope.register(fastifyStatic, {
          root: service.webRoot,
          prefix: `/${service.name}/`,
          decorateReply: false,
          wildcard: true,
          index: 'index.html',
        });
      }),
    );
  }
}
