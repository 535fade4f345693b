import {
  api,
  Card,
  ErrorBanner,
  formatDate,
  Link,
  QueryList,
  Status,
  useCan,
  useQuery,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Job = DataOf<'billing.getSyncJob'>;

/** While a job runs, its detail (the page's own query) is read again every second until it ends. */
function FollowRunning({ job }: { job: Job }) {
  useQuery({
    queryKey: ['jobs', 'get', job.id],
    queryFn: () => api.billing.getSyncJob({ path: { id: job.id } }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false),
  });
  return null;
}

/** Every row the sync skipped, by line of the file, a page at a time. */
function SkippedRows({ job }: { job: Job }) {
  if (job.rowsSkipped === 0) return null;
  return (
    <Card title={`Skipped rows (${job.rowsSkipped.toLocaleString()})`}>
      <QueryList
        queryKey={['jobs', 'skipped', job.id]}
        list={({ limit, offset }) =>
          api.billing.listSkippedRows({
            path: { id: job.id },
            query: { limit: Number(limit), offset: Number(offset) },
          })
        }
        rowKey={(r) => String(r.row)}
        columns={[
          { header: 'Line', cell: (r) => r.row, numeric: true },
          { header: 'Reason', cell: (r) => r.reason },
        ]}
      />
    </Card>
  );
}

/** To the page that starts a sync, for whom may start one (admins). */
function StartLink() {
  const can = useCan();
  if (!can('billing', 'startSync')) return null;
  return (
    <Link className="ui-button ui-button-primary" to="/jobs/new">
      Start a sync or upload a FOCUS file
    </Link>
  );
}

const span = (j: Job) => (j.from || j.to ? `${j.from ?? '…'} – ${j.to ?? '…'}` : '—');

export const jobs: ResourceSpec<Job> = {
  path: 'jobs',
  singular: 'sync job',
  plural: 'sync jobs',
  description: 'Syncs from provider cost APIs and FOCUS files, newest first.',
  actions: <StartLink />,
  access: { service: 'billing', list: 'listSyncJobs', get: 'getSyncJob' },
  key: (j) => j.id,
  title: (j) => `${j.provider} sync ${j.id}`,
  list: (query) => api.billing.listSyncJobs({ query }),
  get: (id) => api.billing.getSyncJob({ path: { id } }),
  filters: [{ name: 'provider', label: 'Provider' }],
  columns: [
    { header: 'Started', cell: (j) => formatDate(j.startedAt) },
    { header: 'Provider', cell: (j) => j.provider },
    { header: 'Status', cell: (j) => <Status value={j.status} /> },
    { header: 'Window', cell: span },
    { header: 'Created', cell: (j) => j.itemsCreated, numeric: true },
    { header: 'Updated', cell: (j) => j.itemsUpdated, numeric: true },
    { header: 'Deleted', cell: (j) => j.itemsDeleted, numeric: true },
    { header: 'Error', cell: (j) => j.error ?? '—' },
  ],
  details: (j) => [
    ['Status', <Status key="status" value={j.status} />],
    ['Provider', j.provider],
    ['Window', span(j)],
    ['Project', j.projectId],
    ['Items created', j.itemsCreated],
    ['Items updated', j.itemsUpdated],
    ['Items deleted', j.itemsDeleted],
    ['Rows read', j.rowsRead],
    ['Rows written', j.rowsWritten],
    ['Rows skipped', j.rowsSkipped],
    ['Started', formatDate(j.startedAt)],
    ['Completed', formatDate(j.completedAt)],
  ],
  more: (j) => (
    <>
      <FollowRunning job={j} />
      <ErrorBanner title="The sync failed" error={j.error && new Error(j.error)} />
      <SkippedRows job={j} />
    </>
  ),
};
