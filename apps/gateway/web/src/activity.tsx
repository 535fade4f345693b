import {
  api,
  Card,
  DataTable,
  ErrorBanner,
  formatDate,
  Loading,
  Status,
  useQuery,
  type DataOf,
} from '@platform/ui';

type Run = DataOf<'stage.listRuns'>[number];
type Delivery = DataOf<'communication.listDeliveries'>[number];

const LATEST = 8;
/** Runs and deliveries are kept per app: the latest of the most recently published apps. */
const APPS = 10;

async function latestPerApp<T>(
  list: (sid: string) => Promise<T[]>,
  when: (row: T) => number,
): Promise<T[]> {
  const apps = await api.stage.listApps({ query: { limit: APPS } });
  const rows = (await Promise.all(apps.map((app) => list(app.sid).catch(() => [] as T[])))).flat();
  return rows.sort((a, b) => when(b) - when(a)).slice(0, LATEST);
}

/** What happened lately: audit events, workflow runs, message deliveries. */
export function Activity() {
  const events = useQuery({
    queryKey: ['ledger.listEvents', 'latest'],
    queryFn: () => api.ledger.listEvents({ query: { limit: LATEST } }),
    refetchInterval: 10_000,
  });
  const runs = useQuery({
    queryKey: ['stage.runs', 'latest'],
    queryFn: () =>
      latestPerApp<Run>(
        (sid) => api.stage.listRuns({ path: { sid }, query: { limit: LATEST } }),
        (r) => r.startedAt,
      ),
    refetchInterval: 10_000,
  });
  const deliveries = useQuery({
    queryKey: ['communication.deliveries', 'latest'],
    queryFn: () =>
      latestPerApp<Delivery>(
        (appId) => api.communication.listDeliveries({ path: { appId }, query: { limit: LATEST } }),
        (d) => Date.parse(d.createdAt),
      ),
    refetchInterval: 10_000,
  });
  return (
    <div className="ui-grid">
      <Card title="Latest audit events" actions={<a href="/ledger/">All events</a>}>
        <ErrorBanner error={events.error} />
        {events.isPending ? (
          <Loading />
        ) : (
          <DataTable
            rows={events.data ?? []}
            rowKey={(e) => e.id}
            empty="No audit events yet."
            columns={[
              { header: 'Action', cell: (e) => <a href={`/ledger/events/${e.id}`}>{e.action}</a> },
              { header: 'Actor', cell: (e) => e.actor ?? '—' },
              { header: 'When', cell: (e) => formatDate(e.timestamp) },
            ]}
          />
        )}
      </Card>
      <Card title="Latest workflow runs" actions={<a href="/stage/">Sandbox</a>}>
        <ErrorBanner error={runs.error} />
        {runs.isPending ? (
          <Loading />
        ) : (
          <DataTable
            rows={runs.data ?? []}
            rowKey={(r) => r.id}
            empty="No workflow runs yet."
            columns={[
              { header: 'Workflow', cell: (r) => `${r.appSid} / ${r.workflow}` },
              { header: 'Status', cell: (r) => <Status value={r.status} /> },
              { header: 'Started', cell: (r) => formatDate(r.startedAt) },
            ]}
          />
        )}
      </Card>
      <Card title="Latest deliveries" actions={<a href="/communication/">Communication</a>}>
        <ErrorBanner error={deliveries.error} />
        {deliveries.isPending ? (
          <Loading />
        ) : (
          <DataTable
            rows={deliveries.data ?? []}
            rowKey={(d) => d.id}
            empty="No messages sent yet."
            columns={[
              { header: 'To', cell: (d) => d.target },
              { header: 'Via', cell: (d) => d.provider },
              { header: 'Status', cell: (d) => <Status value={d.status} /> },
              { header: 'When', cell: (d) => formatDate(d.createdAt) },
            ]}
          />
        )}
      </Card>
    </div>
  );
}
