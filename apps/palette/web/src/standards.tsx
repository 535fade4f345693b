import { api, Card, formatDate, type DataOf, type ResourceSpec } from '@platform/ui';

type Standard = DataOf<'palette.getStandard'>;

/** The standards' pages: list by category or tag, detail with its guidelines, create, delete. */
export const standards: ResourceSpec<Standard> = {
  path: 'standards',
  singular: 'standard',
  plural: 'standards',
  description: 'What the design system agrees on: naming, writing, layout ...',
  key: (s) => s.id,
  title: (s) => s.name,
  list: (query) => api.palette.listStandards({ query }),
  get: (idOrName) => api.palette.getStandard({ path: { idOrName } }),
  // Guidelines are sentences (commas and all): one a line in the form.
  create: (body) =>
    api.palette.createStandard({
      body: {
        ...(body as { name: string }),
        guidelines: String(body.guidelines ?? '')
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      },
    }),
  remove: (idOrName) => api.palette.deleteStandard({ path: { idOrName } }),
  access: { service: 'palette', create: 'createStandard', remove: 'deleteStandard' },
  filters: [
    { name: 'category', label: 'Category', type: 'text' },
    { name: 'tag', label: 'Tag', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (s) => s.name },
    { header: 'Category', cell: (s) => s.category ?? '—' },
    { header: 'Guidelines', cell: (s) => s.guidelines.length, numeric: true },
    { header: 'Description', cell: (s) => s.description ?? '—' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'category', label: 'Category' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'guidelines', label: 'Guidelines', kind: 'textarea', hint: 'One a line' },
    { name: 'tags', label: 'Tags', kind: 'list' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (s) => [
    ['Id', <code key="id">{s.id}</code>],
    ['Category', s.category],
    ['Description', s.description],
    ['Tags', s.tags.length > 0 ? s.tags.join(', ') : null],
    ['Created', formatDate(s.created)],
    ['Updated', formatDate(s.updated)],
  ],
  more: (s) => (
    <Card title="Guidelines">
      {s.guidelines.length === 0 ? (
        <p className="ui-muted">No guidelines.</p>
      ) : (
        <ol>
          {s.guidelines.map((g, i) => (
            <li key={i}>{g}</li>
          ))}
        </ol>
      )}
    </Card>
  ),
};
