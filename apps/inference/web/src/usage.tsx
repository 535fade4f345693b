import {
  api,
  BreakdownChart,
  Card,
  DataTable,
  ErrorBanner,
  FilterBar,
  FilterInput,
  FilterSelect,
  formatDate,
  formatMicros,
  formatNumber,
  keepPreviousData,
  Loading,
  PageHeader,
  Status,
  TrendChart,
  useListParams,
  useQuery,
  type Column,
  type DataOf,
} from '@platform/ui';
import { useProviders } from './models';
import { breakdown, overTime, type Request } from './usage-charts';

type Summary = DataOf<'inference.getUsage'>['summary'];

const tokens = (r: Request) => (r.inputTokens ?? 0) + (r.outputTokens ?? 0);

export const requestColumns: readonly Column<Request>[] = [
  { header: 'When', cell: (r) => formatDate(r.created) },
  { header: 'Provider', cell: (r) => r.provider ?? '—' },
  { header: 'Model', cell: (r) => (r.model ? <code>{r.model}</code> : '—') },
  { header: 'Kind', cell: (r) => r.kind },
  { header: 'Status', cell: (r) => <Status value={r.status} /> },
  { header: 'Input tokens', cell: (r) => formatNumber(r.inputTokens), numeric: true },
  { header: 'Output tokens', cell: (r) => formatNumber(r.outputTokens), numeric: true },
  { header: 'Duration', cell: (r) => `${formatNumber(r.durationMs)} ms`, numeric: true },
  { header: 'Cost', cell: (r) => formatMicros(r.costMicros), numeric: true },
];

function SummaryCards({ summary }: { summary: Summary }) {
  const stats: [string, string][] = [
    ['Requests', formatNumber(summary.totalRequests)],
    ['Errors', formatNumber(summary.totalErrors)],
    ['Aborted', formatNumber(summary.totalAborted)],
    ['Input tokens', formatNumber(summary.totalInputTokens)],
    ['Output tokens', formatNumber(summary.totalOutputTokens)],
    ['Average duration', `${formatNumber(Math.round(summary.avgDurationMs))} ms`],
    ['Cost', formatMicros(summary.totalCostMicros)],
  ];
  return (
    <dl className="inference-stats" aria-label="Summary">
      {stats.map(([label, value]) => (
        <div key={label} className="ui-card">
          <dt className="ui-muted">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What the calls cost: totals, charts over time and by model and provider, every request. */
export function UsagePage() {
  const params = useListParams({ limit: 200 });
  const providers = useProviders();
  const { offset: _offset, ...query } = params.query;
  const usage = useQuery({
    queryKey: ['usage', query],
    queryFn: () => api.inference.getUsage({ query }),
    placeholderData: keepPreviousData,
  });
  const requests = usage.data?.requests ?? [];
  return (
    <>
      <PageHeader title="Usage">
        Every call that reached a provider: tokens, time and cost. The totals cover every request
        the filters keep; the charts and the table the newest {params.limit}.
      </PageHeader>
      <FilterBar>
        <FilterSelect
          label="Provider"
          value={params.get('provider')}
          onChange={(v) => params.set('provider', v)}
          options={(providers.data ?? []).map((p) => p.name)}
        />
        <FilterInput label="Key" value={params.get('key')} onChange={(v) => params.set('key', v)} />
        <FilterInput label="App" value={params.get('app')} onChange={(v) => params.set('app', v)} />
        <FilterInput
          label="Caller"
          value={params.get('caller')}
          onChange={(v) => params.set('caller', v)}
        />
        <FilterInput
          label="Model"
          value={params.get('model')}
          onChange={(v) => params.set('model', v)}
        />
        <FilterInput
          label="Since"
          type="date"
          value={params.get('since')}
          onChange={(v) => params.set('since', v)}
        />
        <FilterInput
          label="Until"
          type="date"
          value={params.get('until')}
          onChange={(v) => params.set('until', v)}
        />
        <FilterInput
          label="Requests listed"
          type="number"
          value={params.get('limit')}
          placeholder="200"
          onChange={(v) => params.set('limit', v)}
        />
      </FilterBar>
      <ErrorBanner error={usage.error ?? providers.error} />
      {usage.isPending ? (
        <Loading />
      ) : usage.data ? (
        <>
          <SummaryCards summary={usage.data.summary} />
          <div className="inference-charts">
            <Card title="Requests over time">
              <TrendChart
                label="Requests and errors over time"
                data={overTime(requests)}
                x="when"
                series={[
                  { key: 'requests', label: 'Requests' },
                  { key: 'errors', label: 'Errors' },
                ]}
              />
            </Card>
            <Card title="Tokens over time">
              <TrendChart
                label="Input and output tokens over time"
                data={overTime(requests)}
                x="when"
                stacked
                series={[
                  { key: 'input', label: 'Input tokens' },
                  { key: 'output', label: 'Output tokens' },
                ]}
              />
            </Card>
            <Card title="Tokens by model">
              <BreakdownChart
                label="Tokens by model"
                data={breakdown(requests, 'model', tokens)}
                x="name"
                value="total"
              />
            </Card>
            <Card title="Requests by provider">
              <BreakdownChart
                label="Requests by provider"
                data={breakdown(requests, 'provider', () => 1)}
                x="name"
                value="total"
              />
            </Card>
          </div>
          <Card title="Requests">
            <DataTable
              rows={requests}
              columns={requestColumns}
              rowKey={(r) => r.id}
              href={(r) => `/requests/${r.id}`}
              empty="No requests match: make a call from the playground."
            />
          </Card>
        </>
      ) : null}
    </>
  );
}
