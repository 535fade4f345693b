import {
  api,
  BreakdownChart,
  Card,
  DataTable,
  Empty,
  ErrorBanner,
  FilterBar,
  FilterInput,
  FilterSelect,
  formatCents,
  keepPreviousData,
  Loading,
  PageHeader,
  TrendChart,
  useListParams,
  useQuery,
} from '@platform/ui';

const BY = [
  'category',
  'provider',
  'service',
  'recurring',
  'tag',
  'account',
  'region',
  'chargeCategory',
] as const;
type By = (typeof BY)[number];
const INTERVALS = ['day', 'week', 'month'] as const;
type Interval = (typeof INTERVALS)[number];

/** The period and filters of the reports, kept in the URL, and each report's query from them. */
function useReportParams() {
  const params = useListParams();
  const { by = 'category', interval = 'day', ...filters } = params.filters;
  return {
    params,
    by: by as By,
    summary: filters,
    trend: { ...filters, interval: interval as Interval },
    breakdown: { ...filters, by: by as By },
  };
}

function Filters({ params }: { params: ReturnType<typeof useListParams> }) {
  const input = (name: string, label: string, type?: 'date') => (
    <FilterInput
      label={label}
      type={type}
      value={params.get(name)}
      onChange={(v) => params.set(name, v)}
    />
  );
  // No "Any" here: each report has a default (a day, by category), shown as chosen.
  const select = (name: string, label: string, options: readonly string[]) => (
    <FilterSelect
      label={label}
      value={params.get(name) || options[0]}
      onChange={(v) => params.set(name, v)}
      options={options}
      any={null}
    />
  );
  return (
    <FilterBar>
      {input('from', 'From', 'date')}
      {input('to', 'To', 'date')}
      {select('interval', 'Interval', INTERVALS)}
      {select('by', 'Breakdown by', BY)}
      {input('category', 'Category')}
      {input('provider', 'Provider')}
      {input('currency', 'Currency')}
    </FilterBar>
  );
}

/** Spending at a glance: the total, a trend over time and a breakdown, each with its numbers. */
export function ReportsPage() {
  const report = useReportParams();
  const options = { placeholderData: keepPreviousData };
  const summary = useQuery({
    queryKey: ['reports', 'summary', report.summary],
    queryFn: () => api.billing.reportSummary({ query: report.summary }),
    ...options,
  });
  const trend = useQuery({
    queryKey: ['reports', 'trend', report.trend],
    queryFn: () => api.billing.reportTrend({ query: report.trend }),
    ...options,
  });
  const breakdown = useQuery({
    queryKey: ['reports', 'breakdown', report.breakdown],
    queryFn: () => api.billing.reportBreakdown({ query: report.breakdown }),
    ...options,
  });
  const currency = summary.data?.currency ?? 'USD';
  const money = (cents: number) => formatCents(cents, currency);
  const busy = summary.isPlaceholderData || trend.isPlaceholderData;
  return (
    <>
      <PageHeader title="Reports">
        Spending computed by the service over one currency; without dates, over every item.
      </PageHeader>
      <Filters params={report.params} />
      <ErrorBanner error={summary.error ?? trend.error ?? breakdown.error} />
      {summary.isPending || trend.isPending || breakdown.isPending ? (
        <Loading />
      ) : !summary.data ? null : summary.data.itemCount === 0 ? (
        <Empty>No spending matches: record an item or sync a provider.</Empty>
      ) : (
        <>
          <dl className="billing-stats" aria-label="Summary" aria-busy={busy || undefined}>
            <div className="ui-card">
              <dt className="ui-muted">Total</dt>
              <dd>{money(summary.data.totalAmount)}</dd>
            </div>
            <div className="ui-card">
              <dt className="ui-muted">Items</dt>
              <dd>{summary.data.itemCount.toLocaleString()}</dd>
            </div>
            <div className="ui-card">
              <dt className="ui-muted">Period</dt>
              <dd className="billing-period">
                {summary.data.from ?? trend.data?.[0]?.date} –{' '}
                {summary.data.to ?? trend.data?.at(-1)?.date}
              </dd>
            </div>
          </dl>
          <div className="billing-charts">
            <Card title={`Spending by ${report.trend.interval}`}>
              <TrendChart
                label={`Spending by ${report.trend.interval}`}
                data={trend.data ?? []}
                x="date"
                series={[{ key: 'amount', label: 'Spent' }]}
                format={money}
              />
              <DataTable
                caption={`Spending by ${report.trend.interval}`}
                rows={trend.data ?? []}
                rowKey={(r) => r.date}
                busy={trend.isPlaceholderData}
                columns={[
                  { header: 'Date', cell: (r) => r.date },
                  { header: 'Amount', cell: (r) => money(r.amount), numeric: true },
                  { header: 'Items', cell: (r) => r.count.toLocaleString(), numeric: true },
                ]}
              />
            </Card>
            <Card title={`Spending by ${report.by}`}>
              <BreakdownChart
                label={`Spending by ${report.by}`}
                data={breakdown.data ?? []}
                x="key"
                value="amount"
                format={money}
              />
              <DataTable
                caption={`Spending by ${report.by}`}
                rows={breakdown.data ?? []}
                rowKey={(r) => r.key}
                busy={breakdown.isPlaceholderData}
                columns={[
                  { header: report.by, cell: (r) => r.key },
                  { header: 'Amount', cell: (r) => money(r.amount), numeric: true },
                  { header: 'Items', cell: (r) => r.count.toLocaleString(), numeric: true },
                  { header: 'Share', cell: (r) => `${r.percentage}%`, numeric: true },
                ]}
              />
            </Card>
          </div>
        </>
      )}
    </>
  );
}
