import {
  api,
  Card,
  formatDate,
  Status,
  useCan,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';
import { AddForm } from './add-form';
import { Links } from './links';

type Pattern = DataOf<'palette.getPattern'>;

const nameOf = (p: Pattern, id: string | null) =>
  id && (p.resolved.components.find((c) => c.id === id)?.name ?? id);

/** Its steps in order (and a form to append one), and the components it uses. */
function PatternMore({ p }: { p: Pattern }) {
  const can = useCan();
  return (
    <>
      <Card title="Steps">
        {p.steps.length === 0 ? (
          <p className="ui-muted">No steps yet.</p>
        ) : (
          <ol className="pl-steps">
            {p.steps.map((s, i) => (
              <li key={i}>
                <strong>{s.title}</strong>
                {s.component && <span className="ui-muted"> · {nameOf(p, s.component)}</span>}
                {s.description && <p>{s.description}</p>}
              </li>
            ))}
          </ol>
        )}
        {can('palette', 'addPatternStep', p) && (
          <AddForm
            label="Add a step"
            resource="patterns"
            fields={[
              { name: 'title', label: 'Step title', required: true },
              { name: 'description', label: 'Step description', kind: 'textarea' },
              { name: 'component', label: 'Component (name)' },
            ]}
            add={(body) =>
              api.palette.addPatternStep({
                path: { idOrName: p.id },
                body: body as { title: string },
              })
            }
          />
        )}
      </Card>
      <Card title="Components">
        <Links
          label="Its components and those its steps use"
          path="components"
          items={p.resolved.components}
          extra={(c) => (
            <>
              {' '}
              <Status value={p.resolved.components.find((r) => r.id === c.id)?.status} />
            </>
          )}
        />
      </Card>
    </>
  );
}

/** The patterns' pages: list by category or tag; detail with steps and components. */
export const patterns: ResourceSpec<Pattern> = {
  path: 'patterns',
  singular: 'pattern',
  plural: 'patterns',
  description: 'Components put together to solve a recurring problem, step by step.',
  key: (p) => p.id,
  title: (p) => p.name,
  list: (query) => api.palette.listPatterns({ query }) as unknown as Promise<Pattern[]>,
  get: async (idOrName) => {
    const p = await api.palette.getPattern({ path: { idOrName } });
    return { ...p, components: p.components.map((id) => nameOf(p, id)!) };
  },
  create: (body) =>
    api.palette.createPattern({ body: body as { name: string } }) as unknown as Promise<Pattern>,
  update: (idOrName, body) =>
    api.palette.updatePattern({ path: { idOrName }, body }) as unknown as Promise<Pattern>,
  remove: (idOrName) => api.palette.deletePattern({ path: { idOrName } }),
  access: {
    service: 'palette',
    create: 'createPattern',
    update: 'updatePattern',
    remove: 'deletePattern',
  },
  filters: [
    { name: 'category', label: 'Category', type: 'text' },
    { name: 'tag', label: 'Tag', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (p) => p.name },
    { header: 'Category', cell: (p) => p.category ?? '—' },
    { header: 'Steps', cell: (p) => p.steps.length, numeric: true },
    { header: 'Description', cell: (p) => p.description ?? '—' },
    { header: 'Updated', cell: (p) => formatDate(p.updated) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'category', label: 'Category' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    {
      name: 'components',
      label: 'Components',
      kind: 'list',
      hint: 'Component names, comma-separated',
    },
    { name: 'tags', label: 'Tags', kind: 'list' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (p) => [
    ['Id', <code key="id">{p.id}</code>],
    ['Category', p.category],
    ['Description', p.description],
    ['Tags', p.tags.length > 0 ? p.tags.join(', ') : null],
    ['Created', formatDate(p.created)],
    ['Updated', formatDate(p.updated)],
  ],
  more: (p) => <PatternMore p={p} />,
};
