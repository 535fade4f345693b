import type { PlatformClient } from '@platform/client';

// The catalog web test's data (catalog.test.ts), made once through the typed client.

/** Services web -> cart, web -> auth, cart -> db, checkout -> cart, in a system and a group. */
export async function seedCatalog(client: PlatformClient) {
  const { catalog } = client;
  await catalog.createOwner({ body: { name: 'team-shop', email: 'shop@example.com' } });
  await catalog.createSystem({ body: { name: 'shop', owner: 'team-shop', tags: ['retail'] } });
  await catalog.createApi({
    body: { name: 'cart-api', type: 'openapi', definition: 'openapi: 3.1.0' },
  });
  for (const name of ['db', 'auth', 'cart', 'web', 'checkout'])
    await catalog.createService({
      body: {
        name,
        system: 'shop',
        owner: 'team-shop',
        description: `The ${name} service`,
        ...(name === 'cart' ? { providesApis: ['cart-api'], tags: ['payments'] } : {}),
      },
    });
  for (const [from, to] of [
    ['web', 'cart'],
    ['web', 'auth'],
    ['cart', 'db'],
    ['checkout', 'cart'],
  ])
    await catalog.addDependency({ path: { idOrName: from }, body: { dependsOn: to } });
  // A namespaced Backstage catalog: a group with its profile and a child, a domain, a template.
  const entity = (
    kind: string,
    name: string,
    spec: Record<string, unknown>,
    metadata: Record<string, unknown> = {},
  ) => ({
    apiVersion: 'backstage.io/v1alpha1',
    kind,
    metadata: { name, namespace: 'eng', ...metadata },
    spec,
  });
  await catalog.importEntities({
    body: {
      entities: [
        entity('Group', 'platform', {
          type: 'department',
          profile: {
            displayName: 'Platform people',
            email: 'platform@example.com',
            picture: 'https://pictures.test/platform.svg',
          },
          children: ['web-team'],
        }),
        entity('Group', 'web-team', { type: 'team' }),
        entity('Domain', 'payments', { owner: 'platform' }, { title: 'Payments' }),
        entity(
          'Template',
          'scaffold',
          { owner: 'platform', type: 'service', steps: [] },
          {
            title: 'New service',
          },
        ),
      ],
    },
  });
  // What other services know of cart (its overview), and a scorecard over every service.
  await client.pulse.trackEvent({
    body: { name: 'cart.opened', properties: { service: 'cart' } },
  });
  await client.billing.createItem({
    body: { name: 'cart hosting', amount: 1234, service: 'cart', provider: 'aws' },
  });
  await client.billing.refreshCatalogSnapshot();
  await client.catalog.createScorecard({
    body: {
      name: 'Basics',
      rules: [
        { id: 'owner', kind: 'hasOwner' },
        { id: 'docs', kind: 'hasDocs', title: 'Has docs' },
      ],
      levels: [
        { name: 'bronze', rules: ['owner'] },
        { name: 'silver', rules: ['docs'] },
      ],
    },
  });
}
