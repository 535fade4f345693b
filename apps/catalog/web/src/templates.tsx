import { api, Card, formatDate, type DataOf, type ResourceSpec } from '@platform/ui';
import { nameOf, NameLink, namespaceFilter, tagsOf } from './refs';

type Template = DataOf<'catalog.getTemplate'>;

/** The templates imported from Backstage descriptors: a list and each one's descriptor (read only). */
export const templates: ResourceSpec<Template> = {
  path: 'templates',
  singular: 'template',
  plural: 'templates',
  key: (t) => t.id,
  title: (t) => t.title ?? nameOf(t),
  list: (query) => api.catalog.listTemplates({ query }) as Promise<Template[]>,
  get: (idOrName) => api.catalog.getTemplate({ path: { idOrName } }),
  description: 'Backstage software templates, as imported (kept whole; not run here).',
  filters: [
    namespaceFilter,
    { name: 'type', label: 'Type', type: 'text' },
    { name: 'owner', label: 'Owner', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (t) => nameOf(t) },
    { header: 'Title', cell: (t) => t.title ?? '—' },
    { header: 'Type', cell: (t) => t.type ?? '—' },
    { header: 'Owner', cell: (t) => t.owner ?? '—' },
  ],
  details: (t) => [
    ['Id', <code key="id">{t.id}</code>],
    ['Name', nameOf(t)],
    ['Description', t.description],
    ['Type', t.type],
    ['Owner', <NameLink key="owner" to="owners" name={t.owner} />],
    ['Tags', tagsOf(t.tags)],
    ['Created', formatDate(t.createdAt)],
  ],
  more: (t) => (
    <Card title="Descriptor">
      <pre className="catalog-descriptor">{JSON.stringify(t.descriptor, null, 2)}</pre>
    </Card>
  ),
};
