import {
  api,
  BreakdownChart,
  Card,
  DataTable,
  ErrorBanner,
  FilterBar,
  FilterInput,
  keepPreviousData,
  Link,
  Loading,
  PageHeader,
  useListParams,
  useQuery,
} from '@platform/ui';

/** The most frequent events of a period: a bar each, and the counts in a table. */
export function TopEventsPage() {
  const params = useListParams({ limit: 10 });
  const { offset: _offset, ...query } = params.query;
  const top = useQuery({
    queryKey: ['top-events', query],
    queryFn: () => api.pulse.topEvents({ query }),
    placeholderData: keepPreviousData,
  });
  const rows = top.data ?? [];
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  const link = (name: string) => {
    const filter = new URLSearchParams({ name });
    for (const bound of ['from', 'to']) if (params.get(bound)) filter.set(bound, params.get(bound));
    return `/events?${filter}`;
  };
  return (
    <>
      <PageHeader title="Top events">
        The events tracked most often in the period, highest count first.
      </PageHeader>
      <FilterBar>
        {(['from', 'to'] as const).map((name) => (
          <FilterInput
            key={name}
            label={name === 'from' ? 'From' : 'To'}
            type="date"
            value={params.get(name)}
            onChange={(v) => params.set(name, v)}
          />
        ))}
        <FilterInput
          label="How many"
          type="number"
          placeholder="10"
          value={params.get('limit')}
          onChange={(v) => params.set('limit', v)}
        />
      </FilterBar>
      <ErrorBanner error={top.error} />
      {top.isPending ? (
        <Loading />
      ) : (
        <div className="pulse-charts">
          <Card title="Events by name">
            <BreakdownChart
              label="Top events by count"
              data={rows}
              x="name"
              value="count"
              height={Math.max(160, rows.length * 32)}
            />
          </Card>
          <Card title="Counts">
            <DataTable
              caption="Top events"
              rows={rows}
              rowKey={(r) => r.name}
              busy={top.isPlaceholderData}
              empty="No events in this period."
              columns={[
                { header: 'Event', cell: (r) => <Link to={link(r.name)}>{r.name}</Link> },
                { header: 'Count', cell: (r) => r.count.toLocaleString(), numeric: true },
                {
                  header: 'Share of these',
                  cell: (r) => `${((100 * r.count) / total).toFixed(1)}%`,
                  numeric: true,
                },
              ]}
            />
          </Card>
        </div>
      )}
    </>
  );
}
