import { api, formatDate, Link, Status, type DataOf, type ResourceSpec } from '@platform/ui';
import { Dependencies } from './dependencies';
import { ServiceOverview } from './overview';
import { NameLink, tagsOf, nameOf, namespaceFilter } from './refs';

type Service = DataOf<'catalog.getService'>;

/**
 * A service with its APIs by name rather than id (what the detail page shows and the edit form
 * sends back: the API takes either): one list call of APIs when it has any.
 */
async function getService(idOrName: string): Promise<Service> {
  const service = await api.catalog.getService({ path: { idOrName } });
  if (service.providesApis.length + service.consumesApis.length === 0) return service;
  const apis = await api.catalog.listApis({ query: { limit: 1000 } });
  const names = new Map(apis.map((a) => [a.id, a.name]));
  const named = (ids: string[]) => ids.map((id) => names.get(id) ?? id);
  return {
    ...service,
    providesApis: named(service.providesApis),
    consumesApis: named(service.consumesApis),
  };
}

const apiLinks = (names: readonly string[]) =>
  names.length === 0
    ? null
    : names.map((name, i) => (
        <span key={name}>
          {i > 0 && ', '}
          <NameLink to="apis" name={name} />
        </span>
      ));

/** The services: list (filters, paging), detail with dependencies, create, edit, delete. */
export const services: ResourceSpec<Service> = {
  path: 'services',
  singular: 'service',
  plural: 'services',
  key: (s) => s.id,
  title: (s) => nameOf(s),
  list: (query) => api.catalog.listServices({ query }),
  get: getService,
  create: (body) => api.catalog.createService({ body: body as { name: string } }),
  update: (idOrName, body) => api.catalog.updateService({ path: { idOrName }, body }),
  remove: (idOrName) => api.catalog.deleteService({ path: { idOrName } }),
  access: {
    service: 'catalog',
    create: 'createService',
    update: 'updateService',
    remove: 'deleteService',
  },
  description: 'What runs, who owns it and what it depends on.',
  filters: [
    namespaceFilter,
    { name: 'system', label: 'System', type: 'text' },
    { name: 'owner', label: 'Owner', type: 'text' },
    { name: 'type', label: 'Type', type: 'text' },
    { name: 'lifecycle', label: 'Lifecycle', type: 'text' },
    { name: 'tag', label: 'Tag', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (s) => nameOf(s) },
    { header: 'System', cell: (s) => s.system ?? '—' },
    { header: 'Owner', cell: (s) => s.owner ?? '—' },
    { header: 'Type', cell: (s) => s.type ?? '—' },
    { header: 'Lifecycle', cell: (s) => <Status value={s.lifecycle} /> },
    { header: 'Dependencies', cell: (s) => s.dependencies.length, numeric: true },
    { header: 'Tags', cell: (s) => tagsOf(s.tags) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'system', label: 'System', hint: 'The name of an existing system' },
    { name: 'owner', label: 'Owner', hint: 'The name of an existing group or user' },
    { name: 'type', label: 'Type', hint: 'service, website, library ...' },
    { name: 'lifecycle', label: 'Lifecycle', hint: 'experimental, production, deprecated ...' },
    { name: 'tags', label: 'Tags', kind: 'list' },
    {
      name: 'providesApis',
      label: 'Provides APIs',
      kind: 'list',
      hint: 'API names, comma-separated',
    },
    {
      name: 'consumesApis',
      label: 'Consumes APIs',
      kind: 'list',
      hint: 'API names, comma-separated',
    },
    {
      name: 'links',
      label: 'Links',
      kind: 'json',
      hint: 'A JSON array of { "url", "title" }',
    },
    { name: 'annotations', label: 'Annotations', kind: 'json' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (s) => [
    ['Id', <code key="id">{s.id}</code>],
    ['Namespace', s.namespace],
    ['Kind', s.kind],
    ['Description', s.description],
    ['System', <NameLink key="system" to="systems" name={s.system} />],
    ['Owner', <NameLink key="owner" to="owners" name={s.owner} />],
    ['Type', s.type],
    ['Lifecycle', <Status key="lifecycle" value={s.lifecycle} />],
    ['Tags', tagsOf(s.tags)],
    ['Provides APIs', apiLinks(s.providesApis)],
    ['Consumes APIs', apiLinks(s.consumesApis)],
    [
      'Links',
      s.links.length === 0
        ? null
        : s.links.map((l) => (
            <div key={l.url}>
              <a href={l.url} rel="noreferrer">
                {l.title ?? l.url}
              </a>
            </div>
          )),
    ],
    [
      'Annotations',
      Object.keys(s.annotations).length === 0
        ? null
        : Object.entries(s.annotations).map(([k, v]) => (
            <div key={k}>
              <code>{k}</code>: {v}
            </div>
          )),
    ],
    ['Created', formatDate(s.createdAt)],
    ['Updated', formatDate(s.updatedAt)],
  ],
  more: (s) => (
    <>
      <p>
        <Link to={`/graph/${encodeURIComponent(s.name)}`}>Dependency graph of {s.name}</Link>
      </p>
      <Dependencies service={s} />
      <ServiceOverview id={s.id} />
    </>
  ),
};
