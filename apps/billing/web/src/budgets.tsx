import {
  api,
  Card,
  DataTable,
  ErrorBanner,
  formatCents,
  Link,
  Notice,
  PageHeader,
  QueryList,
  resourceRoutes,
  Status,
  useCan,
  useListParams,
  useMutation,
  useQuery,
  useQueryClient,
  type BodyOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';
import { AnomaliesCard } from './anomalies';

type Budget = DataOf<'billing.getBudget'>;
type Body = BodyOf<'billing.createBudget'>;

const money = (cents: number, currency = 'USD') => formatCents(cents, currency);

/** The spend of the period against the amount, as a meter (its colour from the thresholds). */
function SpendBar({ budget }: { budget: Budget }) {
  const percent = budget.amount > 0 ? Math.round((budget.spent / budget.amount) * 100) : 0;
  const low = (budget.amount * (budget.thresholds[0] ?? 80)) / 100;
  return (
    <span className="billing-bar">
      <meter
        min={0}
        max={budget.amount}
        value={Math.min(budget.spent, budget.amount)}
        low={Math.min(low, budget.amount)}
        high={budget.amount * 0.999}
        optimum={0}
        aria-label={`${budget.name}: ${percent}% of the budget spent`}
      />{' '}
      {percent}%
    </span>
  );
}

const FILTERS = ['owner', 'service', 'provider', 'tag'] as const;
const fieldOf = (key: (typeof FILTERS)[number]) => `filter${key[0].toUpperCase()}${key.slice(1)}`;

/** What the budget counts, in words. */
const filterText = (b: Budget) =>
  FILTERS.flatMap((k) => (b.filter[k] ? [`${k} ${b.filter[k]}`] : [])).join(', ') || 'all spend';

/** A budget as the form edits it: the filter's fields flat, the channel by name. */
const editable = (b: Budget) => ({
  ...b,
  channel: b.channelName ?? b.channel,
  ...Object.fromEntries(FILTERS.map((k) => [fieldOf(k), b.filter[k]])),
});

/** The form's body as the API takes it: thresholds as numbers, the filter an object. */
function bodyOf(values: Record<string, unknown>): Body {
  const body: Record<string, unknown> = {};
  const filter: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const key = FILTERS.find((k) => fieldOf(k) === name);
    if (key) {
      if (value !== null && value !== '') filter[key] = value;
    } else if (name === 'thresholds' && Array.isArray(value)) body[name] = value.map(Number);
    else body[name] = value;
  }
  return { ...body, filter } as Body;
}

function AlertsCard({ budget }: { budget: Budget }) {
  return (
    <Card title="Alerts">
      <DataTable
        caption="Alerts"
        rows={budget.alerts}
        rowKey={(a) => a.id}
        empty="No threshold crossed this period."
        columns={[
          { header: 'Period', cell: (a) => a.period },
          { header: 'Threshold', cell: (a) => `${a.threshold}%`, numeric: true },
          { header: 'By', cell: (a) => a.basis },
          { header: 'Status', cell: (a) => <Status value={a.status} /> },
          { header: 'Why not sent', cell: (a) => a.error ?? '—' },
        ]}
      />
    </Card>
  );
}

export const budgets: ResourceSpec<Budget> = {
  path: 'budgets',
  singular: 'budget',
  plural: 'budgets',
  key: (b) => b.id,
  title: (b) => b.name,
  list: (query) => api.billing.listBudgets({ query }),
  get: async (idOrName) =>
    editable(await api.billing.getBudget({ path: { idOrName } })) as unknown as Budget,
  create: (body) => api.billing.createBudget({ body: bodyOf(body) as Body }),
  update: async (idOrName, values) => {
    const body = bodyOf(values);
    // The channel goes only when changed: the name it had may now be another channel's.
    const current = await api.billing.getBudget({ path: { idOrName } });
    if (body.channel === current.channelName || body.channel === current.channel)
      delete (body as Partial<Body>).channel;
    return api.billing.updateBudget({ path: { idOrName }, body });
  },
  remove: (idOrName) => api.billing.deleteBudget({ path: { idOrName } }),
  access: {
    service: 'billing',
    create: 'createBudget',
    update: 'updateBudget',
    remove: 'deleteBudget',
  },
  columns: [
    { header: 'Name', cell: (b) => b.name },
    { header: 'Period', cell: (b) => b.currentPeriod.key },
    { header: 'Spent', cell: (b) => <SpendBar budget={b} /> },
    { header: 'Amount', cell: (b) => money(b.amount, b.currency), numeric: true },
    { header: 'Spent so far', cell: (b) => money(b.spent, b.currency), numeric: true },
    { header: 'Forecast', cell: (b) => money(b.forecast, b.currency), numeric: true },
    { header: 'Status', cell: (b) => <Status value={b.status} /> },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'amount', label: 'Amount in cents', kind: 'number', required: true },
    { name: 'period', label: 'Period', kind: 'select', options: ['month', 'quarter', 'year'] },
    { name: 'thresholds', label: 'Thresholds', kind: 'list', hint: 'Percentages: 80, 100' },
    { name: 'channel', label: 'Channel', required: true, hint: 'One billing is registered on' },
    { name: 'filterService', label: 'Catalog service', hint: 'Id or name; empty: any' },
    { name: 'filterOwner', label: 'Owner', hint: 'A catalog owner; empty: any' },
    { name: 'filterProvider', label: 'Provider' },
    { name: 'filterTag', label: 'Tag' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (b) => [
    ['Period', `${b.period} (${b.currentPeriod.from} – ${b.currentPeriod.to})`],
    ['Amount', money(b.amount, b.currency)],
    ['Spent', <SpendBar key="bar" budget={b} />],
    ['Spent so far', money(b.spent, b.currency)],
    ['Forecast', `${money(b.forecast, b.currency)} (${money(b.runRate, b.currency)} a day)`],
    ['Status', <Status key="status" value={b.status} />],
    ['Thresholds', b.thresholds.map((t) => `${t}%`).join(', ')],
    ['Filter', filterText(b)],
    ['Channel', b.channelName ?? b.channel],
    ['Figures as of', b.evaluatedAt ? new Date(b.evaluatedAt).toLocaleString() : 'not yet'],
  ],
  more: (b) => <AlertsCard budget={b} />,
};

/** The budgets' pages but the list, which BudgetsPage is. */
export const budgetRoutes = () =>
  resourceRoutes(budgets).filter((route) => route && route.key !== 'budgets-list');

function ForecastCard({ query }: { query: Record<string, string> }) {
  const forecast = useQuery({
    queryKey: ['forecast', query],
    queryFn: () => api.billing.reportForecast({ query }),
  });
  const f = forecast.data;
  return (
    <Card title="This month">
      <ErrorBanner error={forecast.error} />
      {f && (
        <dl className="billing-stats" aria-label="Forecast">
          {[
            ['Spent so far', money(f.spent, f.currency)],
            ['Run rate a day', money(f.runRate, f.currency)],
            [`Forecast for ${f.to}`, money(f.forecast, f.currency)],
          ].map(([label, value]) => (
            <div className="ui-card" key={label}>
              <dt className="ui-muted">{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

/** Budgets with their spend and forecast, the month's forecast, and the anomalies. */
export function BudgetsPage() {
  const params = useListParams();
  const can = useCan();
  const client = useQueryClient();
  const evaluate = useMutation({
    mutationFn: () => api.billing.evaluateBudgets(),
    onSuccess: () => client.invalidateQueries({ queryKey: ['budgets'] }),
  });
  const scope = Object.fromEntries(
    ['service', 'owner'].map((k) => [k, params.get(k)]).filter(([, v]) => v),
  );
  const done = evaluate.data;
  return (
    <>
      <PageHeader
        title="Budgets"
        actions={
          <>
            {can('billing', 'evaluateBudgets') && (
              <button className="ui-button" onClick={() => evaluate.mutate()}>
                Check now
              </button>
            )}
            {can('billing', 'createBudget') && (
              <Link className="ui-button ui-button-primary" to="/budgets/new">
                New budget
              </Link>
            )}
          </>
        }
      >
        Spend against each budget this period, alerts once per threshold and period.
      </PageHeader>
      <ErrorBanner error={evaluate.error} />
      {done && (
        <Notice>{`Checked ${done.budgets} budgets: ${done.claimed} new alerts, ${done.sent} sent, ${done.pending} waiting.`}</Notice>
      )}
      <ForecastCard query={scope} />
      <QueryList
        queryKey={['budgets', 'list']}
        list={(query) => api.billing.listBudgets({ query })}
        columns={budgets.columns}
        rowKey={budgets.key}
        href={(b) => `/budgets/${encodeURIComponent(b.id)}`}
        filters={[
          { name: 'service', label: 'Catalog service' },
          { name: 'owner', label: 'Owner' },
        ]}
        empty="No budget matches."
      />
      <AnomaliesCard />
    </>
  );
}
