import {
  api,
  Badge,
  Card,
  DataTable,
  Details,
  Empty,
  ErrorBanner,
  formatCents,
  formatDate,
  Link,
  Loading,
  Status,
  useQuery,
  type DataOf,
} from '@platform/ui';
import type { ReactNode } from 'react';
import { NameLink } from './refs';

type Overview = DataOf<'catalog.getServiceOverview'>;
type Unavailable = { available: false; reason: string };
type Available<P> = Exclude<P, Unavailable>;
type Result = Overview['scorecards'][number];

/** One part of the overview: its content, or why another service could not give it. */
function Part<P extends { available: boolean }>({
  title,
  part,
  children,
}: {
  title: string;
  part: P;
  children: (data: Available<P>) => ReactNode;
}) {
  return (
    <Card title={title}>
      {part.available ? (
        children(part as Available<P>)
      ) : (
        <p className="ui-muted" role="note">
          Unavailable: {(part as unknown as Unavailable).reason}
        </p>
      )}
    </Card>
  );
}

const trendText = (trend: number | null) =>
  trend === null
    ? 'nothing the month before'
    : `${trend > 0 ? '+' : ''}${trend}% on the same days of last month`;

const LEVEL_TONE = { pass: 'success', fail: 'danger', unknown: 'warning' } as const;

/** A service's scorecard results: its level on each, and each rule's status and why. */
export function ScorecardResults({ results }: { results: readonly Result[] }) {
  if (results.length === 0) return <Empty>No scorecard has evaluated this service yet.</Empty>;
  return (
    <>
      {results.map((r) => (
        <div key={r.scorecard.id}>
          <h3>
            <Link to={`/scorecards/${encodeURIComponent(r.scorecard.name)}`}>
              {r.scorecard.name}
            </Link>
            {': '}
            {r.level ?? 'no level'} ({r.passed} of {r.total} rules pass)
          </h3>
          <DataTable
            caption={`Rules of ${r.scorecard.name}`}
            rows={r.rules}
            rowKey={(rule) => rule.rule}
            columns={[
              { header: 'Rule', cell: (rule) => rule.rule },
              {
                header: 'Status',
                cell: (rule) => <Badge tone={LEVEL_TONE[rule.status]}>{rule.status}</Badge>,
              },
              { header: 'Why', cell: (rule) => rule.why },
            ]}
          />
        </div>
      ))}
    </>
  );
}

/** Everything the platform knows of a service, part by part (GET /services/:id/overview). */
export function ServiceOverview({ id }: { id: string }) {
  const query = useQuery({
    queryKey: ['services', 'overview', id],
    queryFn: () => api.catalog.getServiceOverview({ path: { idOrName: id } }),
  });
  if (query.isPending) return <Loading label="Loading the overview…" />;
  if (query.error) return <ErrorBanner error={query.error} title="Overview" />;
  const o = query.data;
  return (
    <div className="catalog-overview">
      <Card title="Owner">
        {o.owner ? (
          <Details
            items={[
              ['Owner', <NameLink key="o" to="owners" name={o.owner.name} />],
              ['Kind', o.owner.kind],
              ['Email', o.owner.email],
              ['Members', o.owner.members],
            ]}
          />
        ) : (
          <Empty>{o.service.name} has no owner.</Empty>
        )}
      </Card>
      <Part title="Spend" part={o.spend}>
        {(s) => (
          <Details
            items={[
              ['This month', formatCents(s.month, s.currency)],
              ['Trend', trendText(s.trend)],
              ['Same days last month', formatCents(s.previous, s.currency)],
              ['Period', `${s.period.from} to ${s.period.to}`],
            ]}
          />
        )}
      </Part>
      <Part title="Budgets" part={o.budgets}>
        {(b) => (
          <DataTable
            caption="Budgets naming this service"
            rows={b.items}
            rowKey={(x) => x.id}
            empty="No budget names this service."
            columns={[
              { header: 'Budget', cell: (x) => x.name },
              { header: 'Spent', cell: (x) => formatCents(x.spent), numeric: true },
              { header: 'Amount', cell: (x) => formatCents(x.amount), numeric: true },
              { header: 'Forecast', cell: (x) => formatCents(x.forecast), numeric: true },
              { header: 'Status', cell: (x) => <Status value={x.status} /> },
            ]}
          />
        )}
      </Part>
      <Part title="Open anomalies" part={o.anomalies}>
        {(a) => (
          <DataTable
            caption="Open anomalies of its spend"
            rows={a.items}
            rowKey={(x) => x.id}
            empty="No open anomaly."
            columns={[
              { header: 'Day', cell: (x) => x.day },
              { header: 'Provider', cell: (x) => x.provider ?? 'all' },
              { header: 'Spent', cell: (x) => formatCents(x.actual), numeric: true },
              { header: 'Expected', cell: (x) => formatCents(x.expected), numeric: true },
            ]}
          />
        )}
      </Part>
      <Part title="Repositories" part={o.repositories}>
        {(r) => (
          <DataTable
            caption="Repositories it names"
            rows={r.items}
            rowKey={(x) => x.fullName}
            empty="It names no repository (annotation github.com/project-slug, a source location, or a repository link)."
            columns={[
              { header: 'Repository', cell: (x) => x.fullName },
              { header: 'In git', cell: (x) => (x.connected ? x.status : 'not connected') },
              {
                header: 'Last commit',
                cell: (x) =>
                  x.lastCommit ? `${x.lastCommit.message} (${formatDate(x.lastCommit.date)})` : '—',
              },
              { header: 'Named by', cell: (x) => <code>{x.source}</code> },
            ]}
          />
        )}
      </Part>
      <Part title="Recent audit events" part={o.audit}>
        {(a) => (
          <DataTable
            caption="Audit events about it, newest first"
            rows={a.items}
            rowKey={(x) => x.id}
            empty="No audit event names it."
            columns={[
              { header: 'When', cell: (x) => formatDate(x.timestamp) },
              { header: 'Action', cell: (x) => x.action },
              { header: 'Actor', cell: (x) => x.actor ?? '—' },
            ]}
          />
        )}
      </Part>
      <Part title="Usage (30 days)" part={o.usage}>
        {(u) => (
          <DataTable
            caption={`${u.total} events with ${u.property} = ${o.service.name}`}
            rows={u.events}
            rowKey={(x) => x.name}
            empty={`No event with ${u.property} = ${o.service.name} in 30 days.`}
            columns={[
              { header: 'Event', cell: (x) => x.name },
              { header: 'Count', cell: (x) => x.count, numeric: true },
            ]}
          />
        )}
      </Part>
      <Card title="Scorecards">
        <ScorecardResults results={o.scorecards} />
      </Card>
    </div>
  );
}
