import {
  api,
  Card,
  DataTable,
  ErrorBanner,
  formatDate,
  Loading,
  Status,
  useQuery,
  type ArgsOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Provider = DataOf<'git.getProvider'>;
type ProviderInput = ArgsOf<'git.createProvider'>['body'];

/** A provider's connected repositories, on its page. */
function ProviderRepos({ provider }: { provider: Provider }) {
  const repos = useQuery({
    queryKey: ['repos', 'list', { providerId: provider.id }],
    queryFn: () => api.git.listRepos({ query: { providerId: provider.id, limit: 100 } }),
  });
  return (
    <Card title="Repositories">
      <ErrorBanner error={repos.error} />
      {repos.isPending ? (
        <Loading />
      ) : (
        <DataTable
          rows={repos.data ?? []}
          rowKey={(r) => r.id}
          href={(r) => `/repos/${r.id}`}
          empty="No repository connected through this provider."
          columns={[
            { header: 'Repository', cell: (r) => r.fullName },
            { header: 'Default branch', cell: (r) => r.defaultBranch },
            { header: 'Status', cell: (r) => <Status value={r.status} /> },
          ]}
        />
      )}
    </Card>
  );
}

/** Git providers: GitHub (through a user's delegated token) or local bare repositories. */
export const providers: ResourceSpec<Provider> = {
  path: 'providers',
  singular: 'provider',
  plural: 'providers',
  key: (p) => p.id,
  title: (p) => p.name,
  list: (query) => api.git.listProviders({ query }),
  get: (idOrName) => api.git.getProvider({ path: { idOrName } }),
  create: (body) => api.git.createProvider({ body: body as ProviderInput }),
  remove: (idOrName) => api.git.deleteProvider({ path: { idOrName } }),
  access: { service: 'git', create: 'createProvider', remove: 'deleteProvider' },
  description: 'Where repositories live: GitHub, or bare repositories kept by the platform.',
  columns: [
    { header: 'Name', cell: (p) => p.name },
    { header: 'Type', cell: (p) => p.type },
    { header: 'API', cell: (p) => p.baseUrl ?? '—' },
    { header: 'Created', cell: (p) => formatDate(p.created) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'type', label: 'Type', kind: 'select', options: ['local', 'github'], required: true },
    {
      name: 'passportProviderId',
      label: 'Identity provider',
      hint: "GitHub only: the identity service's provider holding users' delegated tokens",
    },
    {
      name: 'baseUrl',
      label: 'API base URL',
      kind: 'url',
      hint: 'GitHub only: empty for api.github.com, else one listed in GIT_GITHUB_URLS',
    },
  ],
  details: (p) => [
    ['Id', <code key="id">{p.id}</code>],
    ['Type', p.type],
    ['Identity provider', p.passportProviderId],
    ['API base URL', p.baseUrl],
    ['Created', formatDate(p.created)],
    ['Updated', formatDate(p.updated)],
  ],
  more: (p) => <ProviderRepos provider={p} />,
};
