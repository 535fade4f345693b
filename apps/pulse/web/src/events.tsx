import {
  api,
  Card,
  formatDate,
  JsonBlock,
  Link,
  type BodyOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Event = DataOf<'pulse.getEvent'>;

/** Events are tracked and read; the API has no edit or delete. */
export const events: ResourceSpec<Event> = {
  path: 'events',
  singular: 'event',
  plural: 'events',
  description: 'Everything tracked, newest first by when it happened.',
  key: (e) => e.id,
  title: (e) => e.name,
  list: (query) => api.pulse.listEvents({ query }),
  get: (id) => api.pulse.getEvent({ path: { id } }),
  create: (body) => api.pulse.trackEvent({ body: body as BodyOf<'pulse.trackEvent'> }),
  access: { service: 'pulse', create: 'trackEvent' },
  filters: [
    { name: 'name', label: 'Name' },
    { name: 'userId', label: 'User' },
    { name: 'sessionId', label: 'Session' },
    { name: 'from', label: 'From', type: 'date' },
    { name: 'to', label: 'To', type: 'date' },
  ],
  columns: [
    { header: 'Name', cell: (e) => e.name },
    { header: 'User', cell: (e) => e.userId ?? '—' },
    { header: 'Session', cell: (e) => e.sessionId ?? '—' },
    { header: 'When', cell: (e) => formatDate(e.timestamp) },
    { header: 'Properties', cell: (e) => Object.keys(e.properties).length, numeric: true },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true, hint: 'What happened, e.g. page_view' },
    { name: 'userId', label: 'User' },
    { name: 'sessionId', label: 'Session' },
    { name: 'properties', label: 'Properties', kind: 'json' },
    {
      name: 'timestamp',
      label: 'Timestamp',
      hint: 'ISO 8601, e.g. 2026-01-31T12:00:00Z; now by default',
    },
    {
      name: 'id',
      label: 'Event id',
      hint: 'Optional: an event with an id already stored is not stored again',
    },
  ],
  details: (e) => [
    ['Id', <code key="id">{e.id}</code>],
    [
      'User',
      e.userId && (
        <Link key="user" to={`/events?userId=${encodeURIComponent(e.userId)}`}>
          {e.userId}
        </Link>
      ),
    ],
    [
      'Session',
      e.sessionId && (
        <Link key="session" to={`/events?sessionId=${encodeURIComponent(e.sessionId)}`}>
          {e.sessionId}
        </Link>
      ),
    ],
    ['When', formatDate(e.timestamp)],
  ],
  more: (e) => (
    <Card title="Properties">
      <JsonBlock value={e.properties} label="Properties" />
    </Card>
  ),
};
