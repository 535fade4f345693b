import { api, formatDate, type DataOf, type ResourceSpec } from '@platform/ui';

type Item = DataOf<'{{name}}.getItem'>;

/** The items' pages: list (search by name, paging), detail, create, edit, delete. */
export const items: ResourceSpec<Item> = {
  path: 'items',
  singular: 'item',
  plural: 'items',
  key: (item) => item.id,
  title: (item) => item.name,
  list: (query) => api.{{name}}.listItems({ query }),
  get: (idOrName) => api.{{name}}.getItem({ path: { idOrName } }),
  create: (body) => api.{{name}}.createItem({ body: body as { name: string } }),
  update: (idOrName, body) => api.{{name}}.updateItem({ path: { idOrName }, body }),
  remove: (idOrName) => api.{{name}}.deleteItem({ path: { idOrName } }),
  filters: [{ name: 'name', label: 'Name contains' }],
  columns: [
    { header: 'Name', cell: (item) => item.name },
    { header: 'Description', cell: (item) => item.description ?? '—' },
    { header: 'Updated', cell: (item) => formatDate(item.{{updated}}) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'description', label: 'Description', kind: 'textarea' },
  ],
  details: (item) => [
    ['Id', <code key="id">{item.id}</code>],
    ['Description', item.description],
    ['Created', formatDate(item.{{created}})],
    ['Updated', formatDate(item.{{updated}})],
  ],
};
