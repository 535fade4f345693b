import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { namedWildcards, SESSION_COOKIE, type App, type ServiceManifest } from '@platform/core';
import type { FeatureFlags } from './features.js';
import { GATEWAY_VERSION } from './routes/system.js';

type Document = {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
  [key: string]: unknown;
};

export interface OpenApiOptions {
  services: readonly ServiceManifest[];
  flags: FeatureFlags;
  /** In-process instances of proxied services: their routes are not on the gateway itself. */
  fallbacks: ReadonlyMap<string, App>;
}

/** Registers the collector; call before any route so that every route is seen. */
export async function registerOpenApiCollector(app: App, services: readonly ServiceManifest[]) {
  await app.register(swagger, {
    hideUntagged: true,
    transform: namedWildcards,
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Platform API',
        version: GATEWAY_VERSION,
        description:
          'Every enabled service behind the gateway. Responses use the envelope { success, data | error }.',
        license: { name: 'Internal use only (UNLICENSED)' },
      },
      servers: [{ url: '/', description: 'The gateway that served this document' }],
      // When authentication is on, every operation not marked `security: []` needs one of these.
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
      tags: [
        { name: 'gateway', description: 'Health and feature flags' },
        ...services.map((s) => ({ name: s.name, description: s.title })),
      ],
    },
  });
}

/** The gateway's document plus the proxied services' ones, without the disabled services' paths. */
export function mergedDocument(app: App, { services, flags, fallbacks }: OpenApiOptions): Document {
  const doc = structuredClone(app.swagger()) as Document;
  const paths: Record<string, unknown> = { ...doc.paths };
  for (const fallback of fallbacks.values()) {
    const other = structuredClone(fallback.swagger()) as Document;
    Object.assign(paths, other.paths);
    doc.components = {
      ...doc.components,
      schemas: { ...doc.components?.schemas, ...other.components?.schemas },
    };
  }
  const disabled = services.filter((s) => !flags.isEnabled(s.name)).flatMap((s) => s.prefixes);
  doc.paths = Object.fromEntries(
    Object.entries(paths).filter(
      ([path]) => !disabled.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)),
    ),
  );
  doc.tags = (doc.tags as Array<{ name: string }>).filter(
    (t) => t.name === 'gateway' || flags.isEnabled(t.name),
  );
  defaultsAreOptional(doc.paths);
  return doc;
}

type Node = { [key: string]: unknown };
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/**
 * A field with a default need not be sent (the server fills it in), but TypeBox lists it as
 * required, and so would every client generated from the document: a query parameter or body
 * property with a default is made optional.
 */
function defaultsAreOptional(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(defaultsAreOptional);
  if (!isNode(node)) return;
  if (node.in && isNode(node.schema) && node.schema.default !== undefined) node.required = false;
  if (Array.isArray(node.required) && isNode(node.properties)) {
    const properties = node.properties;
    node.required = node.required.filter(
      (name) => !(isNode(properties[name]) && properties[name].default !== undefined),
    );
    if ((node.required as unknown[]).length === 0) delete node.required;
  }
  Object.values(node).forEach(defaultsAreOptional);
}

/**
 * The hash of the `<style>` in the SVG logo of Swagger UI's top bar
 * (`.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}`): without it in
 * `style-src`, every load of /docs logs a Content-Security-Policy violation. A browser test of /docs
 * fails if a new Swagger UI changes it.
 */
const SWAGGER_LOGO_STYLE = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

/** GET /api/v1/openapi.json and the browsable reference at /docs. */
export async function registerOpenApiRoutes(app: App, options: OpenApiOptions) {
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () =>
    mergedDocument(app, options),
  );
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // Served over plain http on laptops and internal networks: do not upgrade asset requests. The
    // one inline style of Swagger UI (its logo's SVG) is allowed by its hash, nothing else inline.
    transformStaticCSP: (header) =>
      header
        .replace(/\s*upgrade-insecure-requests;?/, '')
        .replace(/style-src ([^;]*);/, `style-src $1 '${SWAGGER_LOGO_STYLE}';`),
    transformSpecificationClone: false,
    transformSpecification: () => mergedDocument(app, options),
  });
}
