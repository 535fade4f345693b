import {
  api,
  Card,
  DataTable,
  ErrorBanner,
  formatDate,
  Loading,
  Notice,
  PageHeader,
  QueryList,
  useCan,
  useListParams,
  useMutation,
  useQuery,
  useQueryClient,
  type DataOf,
} from '@platform/ui';

type Model = DataOf<'inference.listModels'>[number];
type SyncResult = DataOf<'inference.syncModels'>[number];

export const useProviders = () =>
  useQuery({
    queryKey: ['providers', 'list', 'all'],
    queryFn: () => api.inference.listProviders({ query: { limit: 1000 } }),
  });

/** "Sync models" from each provider's model list (or one's), and what each answered. */
function SyncModels({ provider }: { provider?: string }) {
  const queryClient = useQueryClient();
  const may = useCan()('inference', 'syncModels');
  const sync = useMutation({
    mutationFn: () => api.inference.syncModels({ body: provider ? { provider } : {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['models'] }),
  });
  if (!may) return null;
  return (
    <div className="inference-sync">
      <button
        type="button"
        className="ui-button"
        disabled={sync.isPending}
        onClick={() => sync.mutate()}
      >
        {sync.isPending ? 'Syncing…' : 'Sync models'}
      </button>
      <ErrorBanner error={sync.error} />
      {sync.data && (
        <Notice>
          {sync.data.map((r: SyncResult) => (
            <span key={r.provider} className="inference-sync-row">
              {r.error
                ? `${r.provider}: ${r.error}`
                : `${r.provider}: ${r.models} models, ${r.added} new`}
            </span>
          ))}
        </Notice>
      )}
    </div>
  );
}

const columns = [
  { header: 'Model', cell: (m: Model) => <code>{m.name}</code> },
  { header: 'Provider', cell: (m: Model) => m.provider },
  { header: 'Synced', cell: (m: Model) => formatDate(m.created) },
];

/** Every synced model, filtered by provider, paged. */
export function ModelsPage() {
  const params = useListParams();
  const providers = useProviders();
  const provider = params.get('provider');
  return (
    <>
      <PageHeader title="Models" actions={<SyncModels provider={provider || undefined} />}>
        The models each provider offers, as last synced from its model list.
      </PageHeader>
      <ErrorBanner error={providers.error} />
      <QueryList
        queryKey={['models']}
        list={(query) => api.inference.listModels({ query })}
        filters={[
          {
            name: 'provider',
            label: 'Provider',
            options: (providers.data ?? []).map((p) => p.name),
          },
        ]}
        columns={columns}
        rowKey={(m) => `${m.providerId}/${m.name}`}
        empty="No models synced yet: sync them from the providers."
      />
    </>
  );
}

/** A provider's synced models, on its page. */
export function ProviderModels({ provider }: { provider: string }) {
  const models = useQuery({
    queryKey: ['models', { provider, limit: 1000 }],
    queryFn: () => api.inference.listModels({ query: { provider, limit: 1000 } }),
  });
  return (
    <Card title="Models" actions={<SyncModels provider={provider} />}>
      <ErrorBanner error={models.error} />
      {models.isPending ? (
        <Loading />
      ) : (
        <DataTable
          rows={models.data ?? []}
          columns={columns.filter((c) => c.header !== 'Provider')}
          rowKey={(m) => m.name}
          empty="No models synced yet."
        />
      )}
    </Card>
  );
}
