import { api, formatDate, type DataOf, type ResourceSpec } from '@platform/ui';

type Provider = DataOf<'passport.getProvider'>;

/** OAuth providers people connect to (admins register them); deleting one drops its connections. */
export const providers: ResourceSpec<Provider> = {
  path: 'providers',
  singular: 'provider',
  plural: 'providers',
  description: 'OAuth providers whose tokens services use for a person (admins only).',
  key: (p) => p.id,
  title: (p) => p.name,
  list: (query) => api.passport.listProviders({ query }),
  get: (idOrName) => api.passport.getProvider({ path: { idOrName } }),
  create: (body) =>
    api.passport.createProvider({
      body: body as DataOf<'passport.createProvider'> & { clientSecret: string },
    }),
  remove: (idOrName) => api.passport.deleteProvider({ path: { idOrName } }),
  access: { service: 'passport', create: 'createProvider', remove: 'deleteProvider' },
  columns: [
    { header: 'Name', cell: (p) => p.name },
    { header: 'Type', cell: (p) => p.type },
    { header: 'Client id', cell: (p) => <code>{p.clientId}</code> },
    { header: 'Scopes', cell: (p) => p.scopes.join(' ') || '—' },
    { header: 'Updated', cell: (p) => formatDate(p.updatedAt) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'type', label: 'Type', kind: 'select', options: ['github', 'google', 'oauth2'] },
    { name: 'clientId', label: 'Client id', required: true },
    {
      name: 'clientSecret',
      label: 'Client secret',
      required: true,
      hint: 'A reference to the variable holding it: env:OAUTH_<NAME>',
    },
    { name: 'authorizeUrl', label: 'Authorize URL', kind: 'url', hint: 'oauth2 only' },
    { name: 'tokenUrl', label: 'Token URL', kind: 'url', hint: 'oauth2 only' },
    { name: 'scopes', label: 'Scopes', kind: 'list' },
  ],
  details: (p) => [
    ['Id', <code key="id">{p.id}</code>],
    ['Type', p.type],
    ['Client id', <code key="cid">{p.clientId}</code>],
    ['Client secret', <code key="cs">{p.clientSecret}</code>],
    ['Authorize URL', p.authorizeUrl],
    ['Token URL', p.tokenUrl],
    ['Scopes', p.scopes.join(' ') || '—'],
    ['Created', formatDate(p.createdAt)],
    ['Updated', formatDate(p.updatedAt)],
  ],
};
