import {
  api,
  Badge,
  BreakdownChart,
  Card,
  DataTable,
  ErrorBanner,
  FilterBar,
  FilterInput,
  formatCents,
  formatDate,
  Loading,
  PageHeader,
  Pager,
  useCan,
  useListParams,
  useQuery,
  type DataOf,
} from '@platform/ui';
import { useState } from 'react';
import { AllocationsCard, RulesCard, useChange } from './owners-rules';

// Spend owned by teams: billing's snapshot of the catalog, spend by owner and by catalog service,
// unmatched spend, the owner rules that map items to catalog services, and the allocation rules
// that split shared costs.

/** Cents in the reports' currency (the summary names it: the one asked for, else billing's own). */
type Money = (cents: number) => string;

function SnapshotCard() {
  const can = useCan();
  const snapshot = useQuery({
    queryKey: ['owners', 'snapshot'],
    queryFn: () => api.billing.getCatalogSnapshot(),
  });
  const refresh = useChange(() => api.billing.refreshCatalogSnapshot());
  const s = snapshot.data;
  return (
    <Card
      title="Catalog"
      actions={
        can('billing', 'refreshCatalogSnapshot') && (
          <button className="ui-button" onClick={() => refresh.mutate()}>
            Read the catalog now
          </button>
        )
      }
    >
      <ErrorBanner error={snapshot.error ?? refresh.error} />
      {!s ? (
        <Loading />
      ) : (
        <p>
          {s.services} catalog services, read {s.fetchedAt ? formatDate(s.fetchedAt) : 'never'}.{' '}
          {s.stale && <Badge tone="warning">{`Using the last snapshot: ${s.error}`}</Badge>}
        </p>
      )}
    </Card>
  );
}

function SpendCard({
  by,
  title,
  range,
  money,
}: {
  by: 'owner' | 'catalogService';
  title: string;
  range: Record<string, string>;
  money: Money;
}) {
  const rows = useQuery({
    queryKey: ['owners', 'breakdown', by, range],
    queryFn: () => api.billing.reportBreakdown({ query: { ...range, by } }),
  });
  type Row = DataOf<'billing.reportBreakdown'>[number];
  const label = (r: Row) => r.name ?? r.key;
  return (
    <Card title={title}>
      <ErrorBanner error={rows.error} />
      <BreakdownChart
        label={title}
        data={(rows.data ?? []).map((r) => ({ ...r, key: label(r) }))}
        x="key"
        value="amount"
        format={money}
      />
      <DataTable
        caption={title}
        rows={rows.data ?? []}
        rowKey={(r) => r.key}
        empty="No spend in this period."
        columns={[
          { header: by === 'owner' ? 'Owner' : 'Catalog service', cell: label },
          { header: 'Amount', cell: (r) => money(r.amount), numeric: true },
          { header: 'Share', cell: (r) => `${r.percentage}%`, numeric: true },
        ]}
      />
    </Card>
  );
}

const UNMATCHED_PAGE = 25;

function UnmatchedCard({ range, money }: { range: Record<string, string>; money: Money }) {
  const [offset, setOffset] = useState(0);
  const query = { ...range, limit: UNMATCHED_PAGE, offset };
  const rows = useQuery({
    queryKey: ['owners', 'unmatched', query],
    queryFn: () => api.billing.reportUnmatched({ query }),
  });
  return (
    <Card title="Unmatched spend">
      <ErrorBanner error={rows.error} />
      <DataTable
        caption="Unmatched spend"
        rows={rows.data ?? []}
        rowKey={(r) => `${r.provider}/${r.service}`}
        empty="Every item resolves to a catalog service."
        columns={[
          { header: 'Provider', cell: (r) => r.provider ?? '—' },
          { header: 'Service', cell: (r) => r.service ?? '—' },
          { header: 'Amount', cell: (r) => money(r.amount), numeric: true },
          { header: 'Items', cell: (r) => r.count.toLocaleString(), numeric: true },
        ]}
      />
      <Pager
        limit={UNMATCHED_PAGE}
        offset={offset}
        count={rows.data?.length ?? 0}
        onOffset={setOffset}
      />
    </Card>
  );
}

/** Who spends what: by owner, by catalog service, unmatched, and the rules behind it. */
export function OwnersPage() {
  const params = useListParams();
  const range = Object.fromEntries(
    ['from', 'to', 'currency'].map((k) => [k, params.get(k)]).filter(([, v]) => v),
  );
  const summary = useQuery({
    queryKey: ['owners', 'summary', range],
    queryFn: () => api.billing.reportSummary({ query: range }),
  });
  const currency = summary.data?.currency;
  const money: Money = (cents) => (currency ? formatCents(cents, currency) : '…');
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
      <PageHeader title="Owners">
        Spend by the catalog&apos;s teams and services: items resolve by owner rules, else by their
        service&apos;s id or name; allocations split shared costs.
      </PageHeader>
      <SnapshotCard />
      <FilterBar>
        {filter('from', 'From', 'date')}
        {filter('to', 'To', 'date')}
        {filter('currency', 'Currency')}
      </FilterBar>
      <ErrorBanner error={summary.error} />
      <div className="billing-charts">
        <SpendCard by="owner" title="Spend by owner" range={range} money={money} />
        <SpendCard
          by="catalogService"
          title="Spend by catalog service"
          range={range}
          money={money}
        />
      </div>
      {/* Another period or currency starts at its first page. */}
      <UnmatchedCard key={JSON.stringify(range)} range={range} money={money} />
      <RulesCard />
      <AllocationsCard />
    </>
  );
}
