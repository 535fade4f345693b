import { api, Card, formatDate, type DataOf, type ResourceSpec } from '@platform/ui';
import { NameLink, RecordLinks, tagsOf, useServiceNames, nameOf, namespaceFilter } from './refs';

type Api = DataOf<'catalog.getApi'>;

const TYPES = ['openapi', 'asyncapi', 'graphql', 'grpc', 'trpc', 'other'] as const;

/** Services providing and consuming an API, by name. */
function ApiServices({ api: record }: { api: Api }) {
  const providers = useServiceNames(record.providedBy);
  const consumers = useServiceNames(record.consumedBy);
  return (
    <div className="ui-grid">
      <Card title="Provided by">
        <RecordLinks to="services" records={providers} empty="No service provides it." />
      </Card>
      <Card title="Consumed by">
        <RecordLinks to="services" records={consumers} empty="No service consumes it." />
      </Card>
    </div>
  );
}

/** The APIs services provide and consume: list, detail with definition, create, edit, delete. */
export const apis: ResourceSpec<Api> = {
  path: 'apis',
  singular: 'API',
  plural: 'APIs',
  key: (a) => a.id,
  title: (a) => nameOf(a),
  list: (query) => api.catalog.listApis({ query }) as Promise<Api[]>,
  get: (idOrName) => api.catalog.getApi({ path: { idOrName } }),
  create: (body) =>
    api.catalog.createApi({ body: body as { name: string; type: (typeof TYPES)[number] } }),
  update: (idOrName, body) => api.catalog.updateApi({ path: { idOrName }, body }),
  remove: (idOrName) => api.catalog.deleteApi({ path: { idOrName } }),
  access: { service: 'catalog', create: 'createApi', update: 'updateApi', remove: 'deleteApi' },
  description: 'The interfaces services provide and consume.',
  filters: [
    namespaceFilter,
    { name: 'type', label: 'Type', options: TYPES },
    { name: 'lifecycle', label: 'Lifecycle', type: 'text' },
    { name: 'owner', label: 'Owner', type: 'text' },
    { name: 'system', label: 'System', type: 'text' },
    { name: 'tag', label: 'Tag', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (a) => nameOf(a) },
    { header: 'Type', cell: (a) => a.type },
    { header: 'Lifecycle', cell: (a) => a.lifecycle ?? '—' },
    { header: 'Owner', cell: (a) => a.owner ?? '—' },
    { header: 'System', cell: (a) => a.system ?? '—' },
    { header: 'Providers', cell: (a) => a.providedBy.length, numeric: true },
    { header: 'Consumers', cell: (a) => a.consumedBy.length, numeric: true },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'type', label: 'Type', kind: 'select', options: TYPES, required: true },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'lifecycle', label: 'Lifecycle' },
    { name: 'owner', label: 'Owner', hint: 'The name of an existing group or user' },
    { name: 'system', label: 'System', hint: 'The name of an existing system' },
    { name: 'tags', label: 'Tags', kind: 'list' },
    { name: 'definition', label: 'Definition', kind: 'textarea', hint: 'The document, as text' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (a) => [
    ['Id', <code key="id">{a.id}</code>],
    ['Type', a.type],
    ['Description', a.description],
    ['Lifecycle', a.lifecycle],
    ['Owner', <NameLink key="owner" to="owners" name={a.owner} />],
    ['System', <NameLink key="system" to="systems" name={a.system} />],
    ['Tags', tagsOf(a.tags)],
    ['Created', formatDate(a.createdAt)],
    ['Updated', formatDate(a.updatedAt)],
  ],
  more: (a) => (
    <>
      <ApiServices api={a} />
      {a.definition && (
        <Card title="Definition">
          <pre className="ui-json" tabIndex={0} aria-label={`Definition of ${a.name}`}>
            {a.definition}
          </pre>
        </Card>
      )}
    </>
  ),
};
