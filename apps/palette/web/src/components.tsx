import {
  api,
  Card,
  DataTable,
  formatDate,
  Status,
  useCan,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';
import { AddForm } from './add-form';
import { Links } from './links';

type Component = DataOf<'palette.getComponent'>;
type Body = { name: string };

export const STATUSES = ['draft', 'experimental', 'beta', 'stable', 'deprecated'] as const;

/** Tokens by name (the form's words), not by id. */
const named = (c: Component): Component => ({
  ...c,
  tokens: c.tokens.map((id) => c.resolved.tokens.find((t) => t.id === id)?.name ?? id),
});

/** Props, variants, examples (and a form to add one), the tokens, patterns and rules. */
function ComponentMore({ c }: { c: Component }) {
  const can = useCan();
  return (
    <>
      <Card title="Props">
        <DataTable
          rows={c.props}
          rowKey={(p) => p.name}
          empty="No props."
          columns={[
            { header: 'Name', cell: (p) => <code>{p.name}</code> },
            { header: 'Type', cell: (p) => <code>{p.type}</code> },
            { header: 'Required', cell: (p) => (p.required ? 'yes' : 'no') },
            { header: 'Default', cell: (p) => p.default ?? '—' },
            { header: 'Description', cell: (p) => p.description ?? '—' },
          ]}
        />
      </Card>
      <Card title="Variants">
        <DataTable
          rows={c.variants}
          rowKey={(v) => v.name}
          empty="No variants."
          columns={[
            { header: 'Name', cell: (v) => v.name },
            { header: 'Description', cell: (v) => v.description ?? '—' },
          ]}
        />
      </Card>
      <Card title="Examples">
        {c.examples.length === 0 && <p className="ui-muted">No examples yet.</p>}
        {c.examples.map((e) => (
          <figure key={e.name} className="pl-example">
            <figcaption>
              <strong>{e.name}</strong> {e.description}
            </figcaption>
            <pre className="ui-json" tabIndex={0} aria-label={`Example ${e.name}`}>
              <code>{e.code}</code>
            </pre>
          </figure>
        ))}
        {can('palette', 'addComponentExample', c) && (
          <AddForm
            label="Add an example"
            resource="components"
            fields={[
              { name: 'name', label: 'Example name', required: true },
              { name: 'code', label: 'Code', kind: 'textarea', required: true },
              { name: 'description', label: 'Example description' },
            ]}
            add={(body) =>
              api.palette.addComponentExample({
                path: { idOrName: c.id },
                body: body as Body & { code: string },
              })
            }
          />
        )}
      </Card>
      <Card title="Related">
        <div className="ui-grid">
          <Links label="Tokens" path="tokens" items={c.resolved.tokens} />
          <Links label="Patterns" path="patterns" items={c.resolved.patterns} />
          <Links label="Accessibility rules" path="rules" items={c.resolved.rules} />
        </div>
      </Card>
    </>
  );
}

/** The components' pages: list by status, category or tag; detail with props and examples. */
export const components: ResourceSpec<Component> = {
  path: 'components',
  singular: 'component',
  plural: 'components',
  description: 'The building blocks, their props, variants, examples and tokens.',
  key: (c) => c.id,
  title: (c) => c.name,
  list: (query) => api.palette.listComponents({ query }) as unknown as Promise<Component[]>,
  get: async (idOrName) => named(await api.palette.getComponent({ path: { idOrName } })),
  create: (body) =>
    api.palette.createComponent({ body: body as Body }) as unknown as Promise<Component>,
  update: (idOrName, body) =>
    api.palette.updateComponent({ path: { idOrName }, body }) as unknown as Promise<Component>,
  remove: (idOrName) => api.palette.deleteComponent({ path: { idOrName } }),
  access: {
    service: 'palette',
    create: 'createComponent',
    update: 'updateComponent',
    remove: 'deleteComponent',
  },
  filters: [
    { name: 'status', label: 'Status', options: STATUSES },
    { name: 'category', label: 'Category', type: 'text' },
    { name: 'tag', label: 'Tag', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (c) => c.name },
    { header: 'Status', cell: (c) => <Status value={c.status} /> },
    { header: 'Category', cell: (c) => c.category ?? '—' },
    { header: 'Description', cell: (c) => c.description ?? '—' },
    { header: 'Updated', cell: (c) => formatDate(c.updated) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'status', label: 'Status', kind: 'select', options: STATUSES },
    { name: 'category', label: 'Category' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'tokens', label: 'Tokens', kind: 'list', hint: 'Token names, comma-separated' },
    {
      name: 'props',
      label: 'Props',
      kind: 'json',
      hint: 'A JSON array: [{ "name": "size", "type": "\\"sm\\" | \\"md\\"", "required": false }]',
    },
    {
      name: 'variants',
      label: 'Variants',
      kind: 'json',
      hint: 'A JSON array: [{ "name": "primary", "description": "..." }]',
    },
    { name: 'tags', label: 'Tags', kind: 'list' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (c) => [
    ['Id', <code key="id">{c.id}</code>],
    ['Status', <Status key="status" value={c.status} />],
    ['Category', c.category],
    ['Description', c.description],
    ['Tags', c.tags.length > 0 ? c.tags.join(', ') : null],
    ['Created', formatDate(c.created)],
    ['Updated', formatDate(c.updated)],
  ],
  more: (c) => <ComponentMore c={c} />,
};
