import {
  api,
  Card,
  DataTable,
  ErrorBanner,
  Loading,
  PageHeader,
  SERVICES,
  Status,
  useCan,
  useMutation,
  useQuery,
  useQueryClient,
  type Column,
} from '@platform/ui';
import { Activity } from './activity';

const titleOf = (name: string) => SERVICES.find((s) => s.name === name)?.title ?? name;

/** Every service's health, checked again every five seconds. */
function Health() {
  const health = useQuery({
    queryKey: ['gateway.health'],
    queryFn: () => api.gateway.health(),
    refetchInterval: 5_000,
  });
  return (
    <Card title="Health" actions={health.data && <Status value={health.data.status} />}>
      <ErrorBanner error={health.error} />
      {health.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption="Checked every 5 seconds"
          rows={health.data?.services ?? []}
          rowKey={(s) => s.name}
          columns={[
            {
              header: 'Service',
              cell: (s) =>
                SERVICES.some((known) => known.name === s.name) ? (
                  <a href={`/${s.name}/`}>{titleOf(s.name)}</a>
                ) : (
                  s.name
                ),
            },
            { header: 'Status', cell: (s) => <Status value={s.status} /> },
            { header: 'Version', cell: (s) => s.version ?? '—' },
            { header: 'Served', cell: (s) => (s as { via?: string }).via ?? '—' },
          ]}
        />
      )}
    </Card>
  );
}

interface Flag {
  name: string;
  enabled: boolean;
  source: string;
  default: boolean;
  env: boolean | null;
  override: boolean | null;
}

/** Feature flags: where each value comes from; for admins, the runtime override to set or clear. */
function Flags() {
  const queryClient = useQueryClient();
  const can = useCan();
  const overrides = can('gateway', 'setFeature') && can('gateway', 'clearFeature');
  const flags = useQuery({
    queryKey: ['gateway.features'],
    queryFn: () => api.gateway.listFeatures(),
  });
  const change = useMutation({
    mutationFn: ({ name, enabled }: { name: string; enabled: boolean | null }) =>
      enabled === null
        ? api.gateway.clearFeature({ path: { name } })
        : api.gateway.setFeature({ path: { name }, body: { enabled } }),
    onSettled: () => queryClient.invalidateQueries(),
  });
  const rows = (flags.data ?? []) as Flag[];
  const override: Column<Flag> = {
    header: 'Override',
    cell: (f) => (
      <div className="ui-actions">
        <button
          type="button"
          className="ui-button"
          disabled={change.isPending}
          onClick={() => change.mutate({ name: f.name, enabled: !f.enabled })}
        >
          {f.enabled ? 'Turn off' : 'Turn on'}
          <span className="ui-sr-only"> {f.name}</span>
        </button>
        {f.override !== null && (
          <button
            type="button"
            className="ui-button"
            disabled={change.isPending}
            onClick={() => change.mutate({ name: f.name, enabled: null })}
          >
            Clear override<span className="ui-sr-only"> of {f.name}</span>
          </button>
        )}
      </div>
    ),
  };
  return (
    <Card title="Feature flags">
      <ErrorBanner error={flags.error ?? change.error} />
      {flags.isPending ? (
        <Loading />
      ) : (
        <DataTable
          rows={rows}
          rowKey={(f) => f.name}
          columns={[
            { header: 'Flag', cell: (f) => f.name },
            { header: 'State', cell: (f) => <Status value={f.enabled ? 'enabled' : 'disabled'} /> },
            {
              header: 'Source',
              cell: (f) =>
                f.source === 'override'
                  ? 'runtime override'
                  : f.source === 'env'
                    ? `FEATURE_${f.name.toUpperCase()}`
                    : 'default',
            },
            ...(overrides ? [override] : []),
          ]}
        />
      )}
    </Card>
  );
}

export function Dashboard() {
  return (
    <>
      <PageHeader title="Platform">
        One gateway in front of the service APIs. <a href="/docs">API reference</a> ·{' '}
        <a href="/api/v1/openapi.json">OpenAPI document</a>
      </PageHeader>
      <div className="ui-grid">
        <Health />
        <Flags />
      </div>
      <Activity />
    </>
  );
}
