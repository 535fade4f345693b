import {
  api,
  Badge,
  Card,
  DataTable,
  formatDate,
  QueryList,
  type BodyOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Scorecard = DataOf<'catalog.getScorecard'>;
type Result = DataOf<'catalog.listScorecardResults'>[number];

const TONE = { pass: 'success', fail: 'danger', unknown: 'warning' } as const;

/** A scorecard's results: each service's level and every rule's status, filtered and paged. */
function Results({ scorecard }: { scorecard: Scorecard }) {
  const rules = scorecard.rules.map((r) => r.id);
  return (
    <Card title="Results">
      <QueryList<Result>
        queryKey={['scorecards', scorecard.id, 'results']}
        list={(query) =>
          api.catalog.listScorecardResults({ path: { idOrName: scorecard.id }, query })
        }
        rowKey={(r) => r.service.id}
        href={(r) => `/services/${encodeURIComponent(r.service.id)}`}
        filters={[
          {
            name: 'level',
            label: 'Level',
            options: [...scorecard.levels.map((l) => l.name), 'none'],
          },
          { name: 'rule', label: 'Rule', options: rules },
          // The API filters by a status only with a rule: no status until a rule is chosen.
          {
            name: 'status',
            label: 'Rule status',
            options: ['fail', 'pass', 'unknown'],
            requires: 'rule',
          },
        ]}
        empty="No service has a result matching these filters yet."
        columns={[
          { header: 'Service', cell: (r) => r.service.name },
          { header: 'Level', cell: (r) => r.level ?? 'none' },
          { header: 'Rules passed', cell: (r) => `${r.passed} of ${r.total}`, numeric: true },
          ...scorecard.rules.map((rule) => ({
            header: rule.title ?? rule.id,
            cell: (r: Result) => {
              const found = r.rules.find((x) => x.rule === rule.id);
              return found ? (
                <span title={found.why}>
                  <Badge tone={TONE[found.status]}>{found.status}</Badge>
                </span>
              ) : (
                '—'
              );
            },
          })),
          { header: 'Evaluated', cell: (r) => formatDate(r.evaluatedAt) },
        ]}
      />
    </Card>
  );
}

/** The scorecards: list, a page per scorecard with its rules, levels and results; admins edit. */
export const scorecards: ResourceSpec<Scorecard> = {
  path: 'scorecards',
  singular: 'scorecard',
  plural: 'scorecards',
  key: (s) => s.id,
  title: (s) => s.name,
  list: (query) => api.catalog.listScorecards({ query }),
  get: (idOrName) => api.catalog.getScorecard({ path: { idOrName } }),
  create: (body) =>
    api.catalog.createScorecard({ body: body as BodyOf<'catalog.createScorecard'> }),
  update: (idOrName, body) => api.catalog.updateScorecard({ path: { idOrName }, body }),
  remove: (idOrName) => api.catalog.deleteScorecard({ path: { idOrName } }),
  access: {
    service: 'catalog',
    create: 'createScorecard',
    update: 'updateScorecard',
    remove: 'deleteScorecard',
  },
  description:
    'Rules over what the platform knows of each service, and the levels they reach, evaluated at every change and daily.',
  columns: [
    { header: 'Name', cell: (s) => s.name },
    { header: 'Rules', cell: (s) => s.rules.length, numeric: true },
    { header: 'Levels', cell: (s) => s.levels.map((l) => l.name).join(' → ') },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'description', label: 'Description', kind: 'textarea' },
    {
      name: 'rules',
      label: 'Rules',
      kind: 'json',
      required: true,
      hint: 'A JSON array of { "id", "kind", "params"? }: hasOwner, hasSystem, hasDescription, hasDocs, hasRepository, lifecycleIn { values }, withinBudget { requireBudget? }, noOpenAnomaly, changedWithinDays { days }',
    },
    {
      name: 'levels',
      label: 'Levels',
      kind: 'json',
      required: true,
      hint: 'A JSON array of { "name", "rules": [rule ids] }, lowest first; each level needs its rules and all below',
    },
  ],
  details: (s) => [
    ['Id', <code key="id">{s.id}</code>],
    ['Description', s.description],
    ['Created by', s.createdBy],
    ['Updated', formatDate(s.updatedAt)],
  ],
  more: (s) => (
    <>
      <Card title="Rules and levels">
        <DataTable
          caption={`Levels of ${s.name}, lowest first`}
          rows={s.levels}
          rowKey={(l) => l.name}
          columns={[
            { header: 'Level', cell: (l) => l.name },
            { header: 'Adds the rules', cell: (l) => l.rules.join(', ') },
          ]}
        />
        <DataTable
          caption={`Rules of ${s.name}`}
          rows={s.rules}
          rowKey={(r) => r.id}
          columns={[
            { header: 'Rule', cell: (r) => r.title ?? r.id },
            { header: 'Kind', cell: (r) => <code>{r.kind}</code> },
            { header: 'Parameters', cell: (r) => (r.params ? JSON.stringify(r.params) : '—') },
          ]}
        />
      </Card>
      <Results scorecard={s} />
    </>
  ),
};
