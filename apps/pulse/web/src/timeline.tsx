import {
  api,
  Card,
  DataTable,
  Empty,
  ErrorBanner,
  FilterBar,
  FilterSelect,
  FilterInput,
  keepPreviousData,
  Loading,
  Notice,
  PageHeader,
  TrendChart,
  useListParams,
  useQuery,
} from '@platform/ui';
import { INTERVALS, MAX_BUCKETS, timeline, type Interval } from './timeline-data';

/** The API has no time-series report: the newest LIMIT events are counted here, by interval. */
const LIMIT = 1000;

export function TimelinePage() {
  const params = useListParams();
  const { interval = '', ...filters } = params.filters;
  const events = useQuery({
    queryKey: ['timeline', filters],
    queryFn: () => api.pulse.listEvents({ query: { ...filters, limit: LIMIT } }),
    placeholderData: keepPreviousData,
  });
  const rows = events.data ?? [];
  const chart = timeline(rows, interval as Interval | '');
  const filter = (name: string, label: string, type?: 'date') => (
    <FilterInput
      label={label}
      type={type}
      value={params.get(name)}
      onChange={(v) => params.set(name, v)}
    />
  );
  return (
    <>
      <PageHeader title="Timeline">
        Events over time, counted in the browser from the newest {LIMIT.toLocaleString()} events the
        filters keep (the API has no time-series report); times in UTC.
      </PageHeader>
      <FilterBar>
        {filter('name', 'Name')}
        {filter('userId', 'User')}
        {filter('from', 'From', 'date')}
        {filter('to', 'To', 'date')}
        <FilterSelect
          label="Interval"
          value={params.get('interval')}
          onChange={(v) => params.set('interval', v)}
          any={`auto (${chart.interval})`}
          options={INTERVALS}
        />
      </FilterBar>
      <ErrorBanner error={events.error} />
      {rows.length === LIMIT && (
        <Notice>
          Only the newest {LIMIT.toLocaleString()} events are counted: narrow the period to see all
          of it.
        </Notice>
      )}
      {events.isPending ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Empty>No events in this period.</Empty>
      ) : chart.tooMany ? (
        <Empty>
          More than {MAX_BUCKETS.toLocaleString()} intervals of a {chart.interval}: choose a wider
          interval or a shorter period.
        </Empty>
      ) : (
        <>
          <Card title={`Events by ${chart.interval}`}>
            <TrendChart
              label={`Events by ${chart.interval}`}
              data={chart.data}
              x="when"
              series={chart.series}
              stacked
            />
          </Card>
          <Card title="Counts">
            <DataTable
              caption={`Events by ${chart.interval} (UTC)`}
              rows={chart.data.filter((d) => Number(d.total) > 0)}
              rowKey={(d) => String(d.when)}
              busy={events.isPlaceholderData}
              columns={[
                { header: 'When (UTC)', cell: (d) => d.when },
                ...chart.series.map((s) => ({
                  header: s.label,
                  cell: (d: (typeof chart.data)[number]) => d[s.key],
                  numeric: true,
                })),
                { header: 'Total', cell: (d) => d.total, numeric: true },
              ]}
            />
          </Card>
        </>
      )}
    </>
  );
}
