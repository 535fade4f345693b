import {
  api,
  Card,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  formatDate,
  Loading,
  PageHeader,
  useMutation,
  useQuery,
  useMe,
  useQueryClient,
  type DataOf,
} from '@platform/ui';

type Connection = DataOf<'passport.listConnections'>[number];

function Disconnect({ connection }: { connection: Connection }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api.passport.deleteConnection({ path: { provider: connection.provider } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['connections'] }),
  });
  return (
    <>
      <ConfirmButton
        label={`Disconnect ${connection.providerName}`}
        confirmLabel="Disconnect"
        question={`Forget your tokens at ${connection.providerName}? Services can no longer act for you there.`}
        onConfirm={() => remove.mutate()}
        pending={remove.isPending}
      />
      <ErrorBanner error={remove.error} />
    </>
  );
}

/** A signed-in person's connections, and a link to connect each provider. */
function Connections() {
  const connections = useQuery({
    queryKey: ['connections'],
    queryFn: () => api.passport.listConnections(),
  });
  const providers = useQuery({
    queryKey: ['providers', 'list', { limit: 100 }],
    queryFn: () => api.passport.listProviders({ query: { limit: 100 } }),
  });
  const returnTo = encodeURIComponent('/passport/connections');
  return (
    <>
      <ErrorBanner error={connections.error ?? providers.error} />
      {connections.isPending ? (
        <Loading />
      ) : (
        <DataTable
          rows={connections.data ?? []}
          rowKey={(c) => c.provider}
          empty="No connections yet."
          columns={[
            { header: 'Provider', cell: (c) => c.providerName },
            { header: 'Scopes', cell: (c) => c.scopes.join(' ') || '—' },
            { header: 'Expires', cell: (c) => formatDate(c.expiresAt) },
            { header: 'Refreshable', cell: (c) => (c.refreshable ? 'yes' : 'no') },
            { header: 'Actions', cell: (c) => <Disconnect connection={c} /> },
          ]}
        />
      )}
      {providers.data && providers.data.length > 0 && (
        <Card title="Connect">
          <div className="ui-actions">
            {providers.data.map((p) => (
              <a
                key={p.id}
                className="ui-button"
                href={`/api/v1/passport/providers/${encodeURIComponent(p.name)}/connect?returnTo=${returnTo}`}
              >
                Connect {p.name}
              </a>
            ))}
          </div>
        </Card>
      )}
    </>
  );
}

/** Connections are a signed-in person's own: nobody else (a key, anonymous) has any. */
export function ConnectionsPage() {
  const me = useMe();
  return (
    <>
      <PageHeader title="Connections">
        Your tokens at OAuth providers, which services use to act for you (never shown).
      </PageHeader>
      {me.isPending ? (
        <Loading />
      ) : me.data?.kind === 'user' ? (
        <Connections />
      ) : (
        <p className="ui-empty">
          Only a signed-in person has connections
          {me.data?.kind === 'anonymous' ? ': authentication is off.' : '.'}
        </p>
      )}
    </>
  );
}
