import {
  api,
  Card,
  DataTable,
  ErrorBanner,
  errorMessage,
  formatDate,
  Loading,
  Status,
  useCan,
  useEnabledServices,
  useMe,
  useQuery,
  type Column,
  type DataOf,
  type Owned,
} from '@platform/ui';
import type { ReactNode } from 'react';

type Event = DataOf<'ledger.listEvents'>[number];
type Run = DataOf<'stage.listRuns'>[number];
type Delivery = DataOf<'communication.listDeliveries'>[number];

const LATEST = 8;
/** Runs and deliveries are kept per app: the latest of the most recently published apps. */
const APPS = 10;

/** The latest rows of every app, and the apps whose rows could not be read (said, not hidden). */
interface PerApp<T> {
  rows: T[];
  failures: string[];
}

/** The latest rows of the apps whose rows the person may read (`readable`: their owners'). */
async function latestPerApp<T>(
  list: (sid: string) => Promise<T[]>,
  when: (row: T) => number,
  readable: (app: Owned) => boolean,
): Promise<PerApp<T>> {
  const apps = (await api.stage.listApps({ query: { limit: APPS } })).filter(readable);
  const failures: string[] = [];
  const perApp = await Promise.all(
    apps.map((app) =>
      list(app.sid).catch((error: unknown) => {
        failures.push(`${app.sid}: ${errorMessage(error)}`);
        return [] as T[];
      }),
    ),
  );
  const rows = perApp.flat().sort((a, b) => when(b) - when(a));
  return { rows: rows.slice(0, LATEST), failures };
}

/** One card of activity: its rows, its errors, or why there is nothing to read (a service off). */
function ActivityCard<T>({
  title,
  link,
  off,
  query,
  columns,
  rowKey,
  empty,
}: {
  title: string;
  link: ReactNode;
  off: string | null;
  query: { data?: PerApp<T>; error: unknown; isPending: boolean };
  columns: Column<T>[];
  rowKey(row: T): string;
  empty: string;
}) {
  const failures = query.data?.failures ?? [];
  return (
    <Card title={title} actions={off ? undefined : link}>
      {off ? (
        <p className="ui-muted">{off}</p>
      ) : (
        <>
          <ErrorBanner error={query.error} />
          {failures.length > 0 && (
            <ErrorBanner title="Not read" error={new Error(failures.join('; '))} />
          )}
          {query.isPending ? (
            <Loading />
          ) : (
            <DataTable
              rows={query.data?.rows ?? []}
              rowKey={rowKey}
              empty={empty}
              columns={columns}
            />
          )}
        </>
      )}
    </Card>
  );
}

/**
 * What happened lately: audit events, workflow runs, message deliveries; a card whose service is
 * turned off says so and calls nothing.
 */
export function Activity() {
  // The flags first: until they are read, no service is known to be on.
  const flags = useQuery({
    queryKey: ['gateway.features'],
    queryFn: () => api.gateway.listFeatures(),
  });
  const on = useEnabledServices().map((s) => s.name);
  const me = useMe();
  const can = useCan();
  const known = !flags.isPending && !me.isPending;
  const offWhy = (name: string, title: string) =>
    !known ? 'Reading the feature flags…' : on.includes(name) ? null : `${title} is turned off.`;
  const ledgerOff =
    offWhy('ledger', 'The audit ledger') ??
    (can('ledger', 'listEvents') ? null : 'The audit trail is read by admins.');
  const stageOff = offWhy('stage', 'The sandbox (stage)');
  const deliveriesOff =
    offWhy('communication', 'Communication') ??
    (stageOff && 'Deliveries are read per sandbox app, and the sandbox (stage) is turned off.');
  const events = useQuery({
    queryKey: ['ledger.listEvents', 'latest'],
    queryFn: async (): Promise<PerApp<Event>> => ({
      rows: await api.ledger.listEvents({ query: { limit: LATEST } }),
      failures: [],
    }),
    enabled: !ledgerOff,
    refetchInterval: 10_000,
  });
  const runs = useQuery({
    queryKey: ['stage.runs', 'latest', me.data],
    queryFn: () =>
      latestPerApp<Run>(
        (sid) => api.stage.listRuns({ path: { sid }, query: { limit: LATEST } }),
        (r) => r.startedAt,
        (app) => can('stage', 'listRuns', app),
      ),
    enabled: !stageOff,
    refetchInterval: 10_000,
  });
  const deliveries = useQuery({
    queryKey: ['communication.deliveries', 'latest', me.data],
    queryFn: () =>
      latestPerApp<Delivery>(
        (appId) => api.communication.listDeliveries({ path: { appId }, query: { limit: LATEST } }),
        (d) => Date.parse(d.createdAt),
        (app) => can('communication', 'listDeliveries', app),
      ),
    enabled: !deliveriesOff,
    refetchInterval: 10_000,
  });
  return (
    <div className="ui-grid">
      <ActivityCard
        title="Latest audit events"
        link={<a href="/ledger/">All events</a>}
        off={ledgerOff}
        query={events}
        rowKey={(e) => e.id}
        empty="No audit events yet."
        columns={[
          { header: 'Action', cell: (e) => <a href={`/ledger/events/${e.id}`}>{e.action}</a> },
          { header: 'Actor', cell: (e) => e.actor ?? '—' },
          { header: 'When', cell: (e) => formatDate(e.timestamp) },
        ]}
      />
      <ActivityCard
        title="Latest workflow runs"
        link={<a href="/stage/">Sandbox</a>}
        off={stageOff}
        query={runs}
        rowKey={(r) => r.id}
        empty="No workflow runs yet."
        columns={[
          { header: 'Workflow', cell: (r) => `${r.appSid} / ${r.workflow}` },
          { header: 'Status', cell: (r) => <Status value={r.status} /> },
          { header: 'Started', cell: (r) => formatDate(r.startedAt) },
        ]}
      />
      <ActivityCard
        title="Latest deliveries"
        link={<a href="/communication/">Communication</a>}
        off={deliveriesOff}
        query={deliveries}
        rowKey={(d) => d.id}
        empty="No messages sent yet."
        columns={[
          { header: 'To', cell: (d) => d.target },
          { header: 'Via', cell: (d) => d.provider },
          { header: 'Status', cell: (d) => <Status value={d.status} /> },
          { header: 'When', cell: (d) => formatDate(d.createdAt) },
        ]}
      />
    </div>
  );
}
