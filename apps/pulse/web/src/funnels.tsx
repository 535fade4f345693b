import {
  api,
  BreakdownChart,
  Card,
  DataTable,
  Empty,
  ErrorBanner,
  FilterBar,
  keepPreviousData,
  Loading,
  PageHeader,
  useListParams,
  useQuery,
} from '@platform/ui';
import { Choice, insightQuery, percent, RangeControls, Text } from './insights-controls';

const WINDOWS = [
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '7 days' },
  { value: '2592000', label: '30 days' },
];

/** Ordered steps (GET /insights/funnels): a bar per step, and counts and conversions in a table. */
export function FunnelsPage() {
  const params = useListParams();
  const { window, breakdownLimit, ...query } = insightQuery(params);
  const funnel = useQuery({
    queryKey: ['funnels', query, window, breakdownLimit],
    queryFn: () =>
      api.pulse.insightFunnels({
        query: {
          ...(query as { steps: string }),
          ...(window ? { window: Number(window) } : {}),
          ...(breakdownLimit ? { breakdownLimit: Number(breakdownLimit) } : {}),
        },
      }),
    enabled: Boolean(query.steps),
    placeholderData: keepPreviousData,
  });
  const data = funnel.data;
  const bars = (data?.steps ?? []).map((s) => ({
    step: `${s.step}. ${s.event}`,
    persons: s.count,
  }));
  return (
    <>
      <PageHeader title="Funnels">
        Persons who did the steps in order, each within the window of their first step.
      </PageHeader>
      <FilterBar>
        <Text params={params} name="steps" label="Steps" placeholder="$pageview,signup,purchase" />
        <Choice params={params} name="window" label="Window" options={WINDOWS} any="14 days" />
        <RangeControls params={params} />
        <Text params={params} name="breakdown" label="Breakdown" placeholder="a property" />
        <Text params={params} name="breakdownLimit" label="Values" type="number" placeholder="10" />
      </FilterBar>
      <ErrorBanner error={funnel.error} />
      {!query.steps ? (
        <Empty>Name two or more events, comma-separated, to see the funnel.</Empty>
      ) : funnel.isPending ? (
        <Loading />
      ) : !data ? null : (
        <>
          <Card title="Persons per step">
            <BreakdownChart
              label="Funnel: persons per step"
              data={bars}
              x="step"
              value="persons"
              height={Math.max(160, bars.length * 40)}
            />
          </Card>
          <Card title="Conversion">
            <DataTable
              caption="Funnel steps"
              rows={data.steps}
              rowKey={(s) => String(s.step)}
              busy={funnel.isPlaceholderData}
              columns={[
                { header: 'Step', cell: (s) => `${s.step}. ${s.event}` },
                { header: 'Persons', cell: (s) => s.count.toLocaleString(), numeric: true },
                { header: 'Of the first', cell: (s) => percent(s.conversion), numeric: true },
                {
                  header: 'Of the previous',
                  cell: (s) => percent(s.stepConversion),
                  numeric: true,
                },
              ]}
            />
          </Card>
          {query.breakdown && (
            <Card title={`By ${query.breakdown}`}>
              <DataTable
                caption={`Funnel by ${query.breakdown}`}
                rows={data.breakdowns}
                rowKey={(b) => String(b.breakdown)}
                empty="Nobody did the first step."
                columns={[
                  { header: query.breakdown, cell: (b) => b.breakdown ?? '(none)' },
                  ...data.steps.map((s, i) => ({
                    header: `${s.step}. ${s.event}`,
                    cell: (b: (typeof data.breakdowns)[number]) =>
                      `${b.steps[i].count.toLocaleString()} (${percent(b.steps[i].conversion)})`,
                    numeric: true,
                  })),
                ]}
              />
            </Card>
          )}
        </>
      )}
    </>
  );
}
