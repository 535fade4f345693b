import { api, Card, formatDate, type DataOf, type ResourceSpec } from '@platform/ui';
import { nameOf, NameLink, namespaceField, namespaceFilter, RecordLinks, tagsOf } from './refs';

type Domain = DataOf<'catalog.getDomain'>;

/** The domains (Backstage's business areas): list, detail with their systems, CRUD. */
export const domains: ResourceSpec<Domain> = {
  path: 'domains',
  singular: 'domain',
  plural: 'domains',
  key: (d) => d.id,
  title: (d) => d.title ?? nameOf(d),
  list: (query) => api.catalog.listDomains({ query }) as Promise<Domain[]>,
  get: (idOrName) => api.catalog.getDomain({ path: { idOrName } }),
  create: (body) => api.catalog.createDomain({ body: body as { name: string } }) as Promise<Domain>,
  update: (idOrName, body) => api.catalog.updateDomain({ path: { idOrName }, body }),
  remove: (idOrName) => api.catalog.deleteDomain({ path: { idOrName } }),
  access: {
    service: 'catalog',
    create: 'createDomain',
    update: 'updateDomain',
    remove: 'deleteDomain',
  },
  description: 'Business areas that systems belong to.',
  filters: [
    namespaceFilter,
    { name: 'owner', label: 'Owner', type: 'text' },
    { name: 'tag', label: 'Tag', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (d) => nameOf(d) },
    { header: 'Title', cell: (d) => d.title ?? '—' },
    { header: 'Owner', cell: (d) => d.owner ?? '—' },
    { header: 'Type', cell: (d) => d.type ?? '—' },
    { header: 'Tags', cell: (d) => tagsOf(d.tags) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    namespaceField,
    { name: 'title', label: 'Title' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'type', label: 'Type', hint: 'product-area, bounded-context ...' },
    { name: 'owner', label: 'Owner', hint: 'The name of an existing group or user' },
    { name: 'tags', label: 'Tags', kind: 'list' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (d) => [
    ['Id', <code key="id">{d.id}</code>],
    ['Name', nameOf(d)],
    ['Description', d.description],
    ['Type', d.type],
    ['Owner', <NameLink key="owner" to="owners" name={d.owner} />],
    ['Tags', tagsOf(d.tags)],
    [
      'Links',
      d.links.length > 0 && (
        <ul key="links" className="catalog-links">
          {d.links.map((l) => (
            <li key={l.url}>
              <a href={l.url}>{l.title ?? l.url}</a>
            </li>
          ))}
        </ul>
      ),
    ],
    ['Created', formatDate(d.createdAt)],
    ['Updated', formatDate(d.updatedAt)],
  ],
  more: (d) => (
    <Card title="Systems">
      <RecordLinks to="systems" records={d.systems} empty={`No system belongs to ${nameOf(d)}.`} />
    </Card>
  ),
};
