import {
  api,
  Card,
  DataTable,
  Details,
  ErrorBanner,
  formatDate,
  JsonBlock,
  Link,
  Loading,
  PageHeader,
  QueryList,
  useParams,
  useQuery,
} from '@platform/ui';
import { useChannels } from './channels';
import { appPath, DeliveryStatus, ForApp, useMayForApp } from './common';

/** How often an accepted delivery is read again, until it is sent or failed. */
const REFRESH_MS = 1000;

function ChannelLink({ id }: { id: string }) {
  const all = useChannels();
  return <Link to={`/channels/${id}`}>{all.data?.find((c) => c.id === id)?.name ?? id}</Link>;
}

/** An app's deliveries, newest first, by channel and status; read again while one is accepted. */
export function DeliveriesPage() {
  const appId = useParams().appId!;
  return (
    <ForApp
      appId={appId}
      requires={['communication', 'listDeliveries']}
      title="Deliveries"
      what="see this app's deliveries"
    >
      <Deliveries appId={appId} />
    </ForApp>
  );
}

function Deliveries({ appId }: { appId: string }) {
  const may = useMayForApp(appId);
  return (
    <>
      <PageHeader
        title="Deliveries"
        actions={
          may('send') && (
            <Link className="ui-button ui-button-primary" to={appPath(appId, '/send')}>
              Send a message
            </Link>
          )
        }
      >
        Messages of app <Link to={appPath(appId)}>{appId}</Link>, newest first.
      </PageHeader>
      <QueryList
        queryKey={['deliveries', appId]}
        list={(query) => api.communication.listDeliveries({ path: { appId }, query })}
        refetchInterval={(rows) =>
          rows?.some((d) => d.status === 'accepted') ? REFRESH_MS : false
        }
        filters={[
          { name: 'channelId', label: 'Channel' },
          {
            name: 'status',
            label: 'Status',
            options: ['accepted', 'sent', 'failed', 'skipped', 'bounced', 'complained'],
          },
        ]}
        rowKey={(d) => d.id}
        href={(d) => appPath(appId, `/deliveries/${d.id}`)}
        empty="No deliveries match."
        columns={[
          { header: 'Delivery', cell: (d) => <code>{d.id}</code> },
          { header: 'Status', cell: (d) => <DeliveryStatus value={d.status} /> },
          { header: 'Channel', cell: (d) => <ChannelLink id={d.channelId} /> },
          { header: 'Target', cell: (d) => d.target || '—' },
          { header: 'Subject', cell: (d) => d.subject ?? '—' },
          { header: 'Attempts', cell: (d) => d.attemptCount, numeric: true },
          { header: 'Created', cell: (d) => formatDate(d.createdAt) },
        ]}
      />
    </>
  );
}

/** One delivery: its status (read again while accepted), message, attempts and error. */
export function DeliveryPage() {
  const { appId, id } = useParams() as { appId: string; id: string };
  return (
    <ForApp
      appId={appId}
      requires={['communication', 'getDelivery']}
      title={`Delivery ${id}`}
      what="see this app's deliveries"
    >
      <Delivery appId={appId} id={id} />
    </ForApp>
  );
}

function Delivery({ appId, id }: { appId: string; id: string }) {
  const delivery = useQuery({
    queryKey: ['deliveries', appId, 'get', id],
    queryFn: () => api.communication.getDelivery({ path: { appId, id } }),
    refetchInterval: (q) => (q.state.data?.status === 'accepted' ? REFRESH_MS : false),
  });
  if (delivery.isPending) return <Loading />;
  const back = <Link to={appPath(appId, '/deliveries')}>Deliveries of {appId}</Link>;
  if (delivery.error)
    return (
      <>
        <PageHeader title={`Delivery ${id}`}>{back}</PageHeader>
        <ErrorBanner error={delivery.error} />
      </>
    );
  const d = delivery.data;
  return (
    <>
      <PageHeader title={`Delivery ${d.id}`}>{back}</PageHeader>
      <p role="status">
        <DeliveryStatus value={d.status} />{' '}
        {d.status === 'accepted'
          ? 'Queued or being retried: this page refreshes until it is sent or failed.'
          : d.status === 'sent'
            ? `Sent${d.live ? '' : ' (to the service log: not live)'}.`
            : 'Failed: it will not be tried again.'}
      </p>
      <Card>
        <Details
          items={[
            ['Channel', <ChannelLink key="channel" id={d.channelId} />],
            ['Provider', d.provider],
            ['Target', d.target],
            ['Error', d.error],
            [
              'Provider message id',
              d.providerMessageId && <code key="pm">{d.providerMessageId}</code>,
            ],
            ['Live', d.live ? 'yes' : 'no'],
            ['Attempts', d.attemptCount],
            ['Idempotency key', d.idempotencyKey],
            ['Created', formatDate(d.createdAt)],
            ['Updated', formatDate(d.updatedAt)],
          ]}
        />
      </Card>
      <Card title="Attempts">
        <DataTable
          rows={d.attempts}
          rowKey={(a) => String(a.number)}
          empty="No attempt yet."
          columns={[
            { header: 'Attempt', cell: (a) => a.number, numeric: true },
            { header: 'Outcome', cell: (a) => <DeliveryStatus value={a.outcome} /> },
            { header: 'At', cell: (a) => formatDate(a.at) },
            {
              header: 'Duration',
              cell: (a) => (a.durationMs === null ? '—' : `${a.durationMs} ms`),
            },
            { header: 'Error', cell: (a) => a.error ?? '—' },
          ]}
        />
      </Card>
      <div className="ui-grid">
        <Card title="Message">
          <Details items={[['Subject', d.subject]]} />
          <pre className="ui-json comm-message" tabIndex={0} aria-label="Text">
            {d.text}
          </pre>
          {d.html && <JsonBlock value={d.html} label="HTML" />}
        </Card>
        <Card title="Metadata">
          <JsonBlock value={d.metadata} label="Metadata" />
        </Card>
      </div>
    </>
  );
}
