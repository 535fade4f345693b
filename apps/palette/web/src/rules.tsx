import {
  api,
  Badge,
  Card,
  formatDate,
  Status,
  type DataOf,
  type ResourceSpec,
  type Tone,
} from '@platform/ui';
import { Links } from './links';

type Rule = DataOf<'palette.getRule'>;

const SEVERITIES = ['minor', 'moderate', 'serious', 'critical'] as const;
const LEVELS = ['none', 'A', 'AA', 'AAA'] as const;
const TONE: Record<string, Tone> = {
  minor: 'neutral',
  moderate: 'accent',
  serious: 'warning',
  critical: 'danger',
};

const Severity = ({ value }: { value: string }) => <Badge tone={TONE[value]}>{value}</Badge>;

/** The accessibility rules' pages: list by category, severity or tag; detail; create; delete. */
export const rules: ResourceSpec<Rule> = {
  path: 'rules',
  singular: 'accessibility rule',
  plural: 'accessibility rules',
  description: 'What every component must do for everyone, with its WCAG success criterion.',
  key: (r) => r.id,
  title: (r) => r.name,
  list: (query) => api.palette.listRules({ query }) as unknown as Promise<Rule[]>,
  get: (idOrName) => api.palette.getRule({ path: { idOrName } }),
  create: (body) => {
    const { level, ...rest } = body;
    return api.palette.createRule({
      body: {
        ...(rest as { name: string; severity: Rule['severity'] }),
        ...(level && level !== 'none' ? { level: level as Rule['level'] } : {}),
      },
    }) as unknown as Promise<Rule>;
  },
  remove: (idOrName) => api.palette.deleteRule({ path: { idOrName } }),
  access: { service: 'palette', create: 'createRule', remove: 'deleteRule' },
  filters: [
    { name: 'severity', label: 'Severity', options: SEVERITIES },
    { name: 'category', label: 'Category', type: 'text' },
    { name: 'tag', label: 'Tag', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (r) => r.name },
    { header: 'Severity', cell: (r) => <Severity value={r.severity} /> },
    { header: 'WCAG', cell: (r) => r.wcag ?? '—' },
    { header: 'Level', cell: (r) => r.level ?? '—' },
    { header: 'Category', cell: (r) => r.category ?? '—' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'severity', label: 'Severity', kind: 'select', options: SEVERITIES },
    { name: 'wcag', label: 'WCAG success criterion', hint: 'e.g. 1.4.3' },
    { name: 'level', label: 'Level', kind: 'select', options: LEVELS },
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
  details: (r) => [
    ['Id', <code key="id">{r.id}</code>],
    ['Severity', <Severity key="severity" value={r.severity} />],
    ['WCAG', r.wcag],
    ['Level', r.level],
    ['Category', r.category],
    ['Description', r.description],
    ['Tags', r.tags.length > 0 ? r.tags.join(', ') : null],
    ['Created', formatDate(r.created)],
    ['Updated', formatDate(r.updated)],
  ],
  more: (r) => (
    <Card title="Applies to">
      <Links
        label="Components"
        path="components"
        items={r.usage.components}
        extra={(c) => (
          <>
            {' '}
            <Status value={r.usage.components.find((u) => u.id === c.id)?.status} />
          </>
        )}
      />
    </Card>
  ),
};
