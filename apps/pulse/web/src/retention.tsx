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
} from '@platform/ui';
import { Choice, insightQuery, percent, RangeControls, Text } from './insights-controls';

/** Cohorts and who comes back (GET /insights/retention): the cohort table, and the mean curve. */
export function RetentionPage() {
  const params = useListParams();
  const query = insightQuery(params);
  const retention = useQuery({
    queryKey: ['retention', query],
    queryFn: () => api.pulse.insightRetention({ query: query as { event: string } }),
    enabled: Boolean(query.event),
    placeholderData: keepPreviousData,
  });
  const data = retention.data;
  const cohorts = data?.cohorts ?? [];
  const unit = data?.interval ?? 'day';
  // The share returning per period over every cohort that has reached it, weighted by size.
  const curve = (cohorts[0]?.periods ?? []).map((_, p) => {
    const reached = cohorts.filter((c) => c.periods.length > p);
    const size = reached.reduce((n, c) => n + c.size, 0);
    const back = reached.reduce((n, c) => n + c.periods[p].count, 0);
    return { period: `${unit} ${p}`, share: size ? Math.round((1000 * back) / size) / 10 : 0 };
  });
  return (
    <>
      <PageHeader title="Retention">
        A cohort per {unit}: the persons who first did the event then; how many come back after.
      </PageHeader>
      <FilterBar>
        <Text params={params} name="event" label="Event" placeholder="signup" />
        <Text params={params} name="returnEvent" label="Return event" placeholder="the same" />
        <Choice
          params={params}
          name="interval"
          label="Interval"
          options={['day', 'week']}
          any="day"
        />
        <RangeControls params={params} />
      </FilterBar>
      <ErrorBanner error={retention.error} />
      {!query.event ? (
        <Empty>Choose the event that starts a cohort.</Empty>
      ) : retention.isPending ? (
        <Loading />
      ) : !data ? null : (
        <>
          <Card title="Returning, all cohorts">
            <TrendChart
              label="Share returning per period (%)"
              data={curve}
              x="period"
              series={[{ key: 'share', label: '% returning' }]}
              format={(v) => `${v}%`}
            />
          </Card>
          <Card title="Cohorts">
            <DataTable
              caption={`Retention by ${unit} (${data.tz})`}
              rows={cohorts}
              rowKey={(c) => c.start}
              busy={retention.isPlaceholderData}
              columns={[
                { header: 'Cohort', cell: (c) => c.start.slice(0, 10) },
                { header: 'Persons', cell: (c) => c.size.toLocaleString(), numeric: true },
                ...curve.map((_, p) => ({
                  header: `${unit} ${p}`,
                  cell: (c: (typeof cohorts)[number]) =>
                    c.periods[p] ? `${c.periods[p].count} (${percent(c.periods[p].share)})` : '',
                  numeric: true,
                })),
              ]}
            />
          </Card>
        </>
      )}
    </>
  );
}
