import { useEffect, useState } from 'react';
import {
  api,
  Card,
  DataTable,
  ErrorBanner,
  formatDate,
  Link,
  Pager,
  Status,
  useQuery,
  useQueryClient,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Job = DataOf<'billing.getSyncJob'>;

/** While a job runs, its detail page asks again every second until it ends. */
function FollowRunning({ job }: { job: Job }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (job.status !== 'running') return;
    const timer = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: ['jobs', 'get', job.id] }),
      1000,
    );
    return () => clearInterval(timer);
  }, [job.id, job.status, queryClient]);
  return null;
}

/** Every row the sync skipped, by line of the file, a page at a time. */
function SkippedRows({ job }: { job: Job }) {
  const [offset, setOffset] = useState(0);
  const limit = 100;
  const rows = useQuery({
    queryKey: ['jobs', 'skipped', job.id, offset],
    queryFn: () => api.billing.listSkippedRows({ path: { id: job.id }, query: { limit, offset } }),
    enabled: job.rowsSkipped > 0,
  });
  if (job.rowsSkipped === 0) return null;
  return (
    <Card title={`Skipped rows (${job.rowsSkipped.toLocaleString()})`}>
      <ErrorBanner error={rows.error} />
      <DataTable
        rows={rows.data ?? []}
        rowKey={(r) => String(r.row)}
        columns={[
          { header: 'Line', cell: (r) => r.row, numeric: true },
          { header: 'Reason', cell: (r) => r.reason },
        ]}
      />
      <Pager limit={limit} offset={offset} count={rows.data?.length ?? 0} onOffset={setOffset} />
    </Card>
  );
}

const span = (j: Job) => (j.from || j.to ? `${j.from ?? '…'} – ${j.to ?? '…'}` : '—');

export const jobs: ResourceSpec<Job> = {
  path: 'jobs',
  singular: 'sync job',
  plural: 'sync jobs',
  description: (
    <>
      Syncs from provider cost APIs and FOCUS files, newest first.{' '}
      <Link to="/jobs/new">Start a sync or upload a FOCUS file</Link>
    </>
  ),
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
