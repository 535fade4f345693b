import {
  Allowed,
  api,
  Card,
  DataTable,
  ErrorBanner,
  formatDate,
  JsonBlock,
  Loading,
  PageHeader,
  Status,
  useCan,
  useQuery,
  type BodyOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Event = DataOf<'ledger.getEvent'>;

/** The chain's state: re-computed by the service on every visit (GET /events/verify). */
export function VerifyStatus() {
  const may = useCan()('ledger', 'verifyEvents');
  const verify = useQuery({
    queryKey: ['events', 'verify'],
    queryFn: () => api.ledger.verifyEvents(),
    enabled: may,
  });
  if (!may) return 'The audit trail is read by admins.';
  if (verify.isPending) return <Loading label="Verifying the chain…" />;
  if (verify.error) return <ErrorBanner title="Verify failed" error={verify.error} />;
  const result = verify.data;
  return (
    <span role="status">
      Chain <Status value={result.valid ? 'valid' : 'invalid'} />{' '}
      {result.valid
        ? `${result.checked.toLocaleString()} events checked`
        : `first invalid event ${result.firstInvalidId ?? '—'}: ${result.reason ?? ''}`}
    </span>
  );
}

/** Append-only: events are recorded and read, never edited or deleted (only retention does). */
export const events: ResourceSpec<Event> = {
  path: 'events',
  singular: 'event',
  plural: 'events',
  description: <VerifyStatus />,
  key: (e) => e.id,
  title: (e) => e.action,
  list: (query) => api.ledger.listEvents({ query }),
  get: (id) => api.ledger.getEvent({ path: { id } }),
  create: (body) => api.ledger.createEvent({ body: body as BodyOf<'ledger.createEvent'> }),
  access: { service: 'ledger', list: 'listEvents', get: 'getEvent', create: 'createEvent' },
  filters: [
    { name: 'action', label: 'Action' },
    { name: 'actor', label: 'Actor' },
    { name: 'resource', label: 'Resource' },
    { name: 'service', label: 'Service' },
    { name: 'from', label: 'From', type: 'date' },
    { name: 'to', label: 'To', type: 'date' },
  ],
  columns: [
    { header: 'Action', cell: (e) => e.action },
    { header: 'Actor', cell: (e) => e.actor ?? '—' },
    { header: 'Resource', cell: (e) => e.resource ?? '—' },
    { header: 'Service', cell: (e) => e.service ?? '—' },
    { header: 'When', cell: (e) => formatDate(e.timestamp) },
    { header: 'Seq', cell: (e) => e.seq, numeric: true },
  ],
  fields: [
    { name: 'action', label: 'Action', required: true, hint: 'What happened, e.g. user.login' },
    { name: 'actor', label: 'Actor' },
    { name: 'resource', label: 'Resource' },
    { name: 'service', label: 'Service' },
    { name: 'metadata', label: 'Metadata', kind: 'json' },
    { name: 'details', label: 'Details', kind: 'json' },
  ],
  details: (e) => [
    ['Id', <code key="id">{e.id}</code>],
    ['Actor', e.actor],
    ['Resource', e.resource],
    ['Service', e.service],
    ['When', formatDate(e.timestamp)],
    ['Sequence', e.seq],
    ['Anonymized', e.anonymized ? 'yes' : 'no'],
    ['Hash', <code key="hash">{e.hash}</code>],
    ['Previous hash', <code key="prev">{e.prevHash}</code>],
  ],
  more: (e) => (
    <div className="ui-grid">
      <Card title="Metadata">
        <JsonBlock value={e.metadata} label="Metadata" />
      </Card>
      <Card title="Details">
        <JsonBlock value={e.details} label="Details" />
      </Card>
    </div>
  ),
};

/** The chain heads signed with the service's key, newest first. */
export function SignedHeads() {
  return (
    <>
      <PageHeader title="Signed heads">
        Checkpoints of the chain signed with Ed25519; verify checks every one.
      </PageHeader>
      <Allowed requires={['ledger', 'listSignedHeads']} what="see the signed heads">
        <Heads />
      </Allowed>
    </>
  );
}

function Heads() {
  const heads = useQuery({
    queryKey: ['events', 'heads'],
    queryFn: () => api.ledger.listSignedHeads({ query: { limit: 100 } }),
  });
  return (
    <>
      <ErrorBanner error={heads.error} />
      {heads.isPending ? (
        <Loading />
      ) : (
        <DataTable
          rows={heads.data ?? []}
          rowKey={(h) => `${h.seq}-${h.signedAt}`}
          empty="No signed heads: signing is off, or nothing was signed yet."
          columns={[
            { header: 'Seq', cell: (h) => h.seq, numeric: true },
            { header: 'Hash', cell: (h) => <code>{h.hash.slice(0, 16)}…</code> },
            { header: 'Key', cell: (h) => h.keyId },
            { header: 'Signed', cell: (h) => formatDate(h.signedAt) },
          ]}
        />
      )}
    </>
  );
}
