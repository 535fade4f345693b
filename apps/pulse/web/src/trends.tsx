import {
  api,
  Card,
  DataTable,
  Empty,
  ErrorBanner,
  FilterBar,
  keepPreviousData,
  Loading,
  PageHeader,
  TrendChart,
  useListParams,
  useQuery,
  type Datum,
} from '@platform/ui';
import { Choice, insightQuery, periodLabel, RangeControls, Text } from './insights-controls';

const INTERVALS = ['hour', 'day', 'week', 'month'];
const MATHS = [
  { value: 'total', label: 'Total events' },
  { value: 'unique_users', label: 'Unique users' },
];

/** An event over time (GET /insights/trends): a line per series, and the counts in a table. */
export function TrendsPage() {
  const params = useListParams();
  const { breakdownLimit, ...query } = insightQuery(params);
  const event = query.event;
  const trend = useQuery({
    queryKey: ['trends', query, breakdownLimit],
    queryFn: () =>
      api.pulse.insightTrends({
        query: {
          ...(query as { event: string }),
          ...(breakdownLimit ? { breakdownLimit: Number(breakdownLimit) } : {}),
        },
      }),
    enabled: Boolean(event),
    placeholderData: keepPreviousData,
  });
  const data = trend.data;
  const interval = data?.interval ?? 'day';
  const series = (data?.series ?? []).map((s, i) => ({
    key: `s${i}`,
    label:
      data?.series.length === 1 && !query.breakdown ? (event ?? '') : (s.breakdown ?? '(none)'),
  }));
  const points: Datum[] = (data?.periods ?? []).map((start, p) => ({
    when: periodLabel(start, interval),
    ...Object.fromEntries((data?.series ?? []).map((s, i) => [`s${i}`, s.counts[p]])),
  }));
  const what = data?.math === 'unique_users' ? 'Unique users' : 'Events';
  return (
    <>
      <PageHeader title="Trends">
        An event over time, per period of the time zone; periods without events count 0.
      </PageHeader>
      <FilterBar>
        <Text params={params} name="event" label="Event" placeholder="$pageview" />
        <Choice params={params} name="interval" label="Interval" options={INTERVALS} any="day" />
        <Choice params={params} name="math" label="Count" options={MATHS} any="Total events" />
        <RangeControls params={params} />
        <Text params={params} name="breakdown" label="Breakdown" placeholder="a property" />
        <Text params={params} name="breakdownLimit" label="Values" type="number" placeholder="10" />
      </FilterBar>
      <ErrorBanner error={trend.error} />
      {!event ? (
        <Empty>Choose an event to see its trend.</Empty>
      ) : trend.isPending ? (
        <Loading />
      ) : !data ? null : (
        <>
          <Card title={`${what} by ${interval}`}>
            <TrendChart
              label={`${what} of ${event} by ${interval}`}
              data={points}
              x="when"
              series={series}
            />
          </Card>
          <Card title="Counts">
            {series.length === 0 ? (
              <Empty>No events in this range.</Empty>
            ) : (
              <DataTable
                caption={`${what} of ${event} by ${interval} (${data.tz})`}
                rows={points}
                rowKey={(d) => String(d.when)}
                busy={trend.isPlaceholderData}
                columns={[
                  { header: `When (${data.tz})`, cell: (d) => d.when },
                  ...series.map((s) => ({
                    header: s.label,
                    cell: (d: Datum) => Number(d[s.key]).toLocaleString(),
                    numeric: true,
                  })),
                ]}
              />
            )}
            <p className="pulse-note">
              In the range:{' '}
              {data.series
                .map((s, i) => `${series[i].label} ${s.total.toLocaleString()}`)
                .join(', ')}
            </p>
          </Card>
        </>
      )}
    </>
  );
}
