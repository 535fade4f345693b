import { api, Card, formatDate, type DataOf, type ResourceSpec } from '@platform/ui';
import { nameOf, NameLink, namespaceField, namespaceFilter, RecordLinks, tagsOf } from './refs';

type System = DataOf<'catalog.getSystem'>;

/** The systems: list, detail with their services, create, edit, delete. */
export const systems: ResourceSpec<System> = {
  path: 'systems',
  singular: 'system',
  plural: 'systems',
  key: (s) => s.id,
  title: (s) => nameOf(s),
  list: (query) => api.catalog.listSystems({ query }) as Promise<System[]>,
  get: (idOrName) => api.catalog.getSystem({ path: { idOrName } }),
  create: (body) => api.catalog.createSystem({ body: body as { name: string } }) as Promise<System>,
  update: (idOrName, body) => api.catalog.updateSystem({ path: { idOrName }, body }),
  remove: (idOrName) => api.catalog.deleteSystem({ path: { idOrName } }),
  access: {
    service: 'catalog',
    create: 'createSystem',
    update: 'updateSystem',
    remove: 'deleteSystem',
  },
  description: 'Services that make up one product together.',
  filters: [
    { name: 'owner', label: 'Owner', type: 'text' },
    { name: 'tag', label: 'Tag', type: 'text' },
    { name: 'domain', label: 'Domain', type: 'text' },
    namespaceFilter,
  ],
  columns: [
    { header: 'Name', cell: (s) => nameOf(s) },
    { header: 'Domain', cell: (s) => s.domain ?? '—' },
    { header: 'Owner', cell: (s) => s.owner ?? '—' },
    { header: 'Description', cell: (s) => s.description ?? '—' },
    { header: 'Tags', cell: (s) => tagsOf(s.tags) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    namespaceField,
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'owner', label: 'Owner', hint: 'The name of an existing group or user' },
    { name: 'domain', label: 'Domain', hint: 'The name (namespace/name) of an existing domain' },
    { name: 'tags', label: 'Tags', kind: 'list' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (s) => [
    ['Id', <code key="id">{s.id}</code>],
    ['Description', s.description],
    ['Namespace', s.namespace],
    ['Domain', <NameLink key="domain" to="domains" name={s.domain} />],
    ['Owner', <NameLink key="owner" to="owners" name={s.owner} />],
    ['Tags', tagsOf(s.tags)],
    ['Created', formatDate(s.createdAt)],
    ['Updated', formatDate(s.updatedAt)],
  ],
  more: (s) => (
    <Card title="Services">
      <RecordLinks to="services" records={s.services} empty={`No service belongs to ${s.name}.`} />
    </Card>
  ),
};
