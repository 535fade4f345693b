import {
  api,
  Card,
  ConfirmButton,
  ErrorBanner,
  formatDate,
  Notice,
  useCan,
  useMutation,
  useQueryClient,
  type BodyOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Policy = DataOf<'ledger.getPolicy'>;

/** Runs a policy now, once confirmed (it deletes or anonymizes events), and says what it did. */
function ApplyNow({ policy }: { policy: Policy }) {
  const queryClient = useQueryClient();
  const can = useCan();
  const apply = useMutation({
    mutationFn: () => api.ledger.applyPolicy({ path: { idOrName: policy.id } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['policies'] }),
        queryClient.invalidateQueries({ queryKey: ['events'] }),
      ]),
  });
  const verb = policy.action === 'delete' ? 'deleted' : 'anonymized';
  if (!can('ledger', 'applyPolicy')) return null;
  return (
    <Card
      title="Apply now"
      actions={
        <ConfirmButton
          label="Apply now"
          question={`Apply ${policy.name} now? Its events older than ${policy.retentionDays} days are ${verb} at once. This cannot be undone.`}
          onConfirm={() => apply.mutate()}
          pending={apply.isPending}
        />
      }
    >
      <p className="ui-muted">
        Runs the policy at once, as the retention job does on its interval.
      </p>
      <ErrorBanner error={apply.error} />
      {apply.data && (
        <Notice>
          {apply.data.deleted} deleted, {apply.data.anonymized} anonymized (events before{' '}
          {formatDate(apply.data.cutoff)}).
        </Notice>
      )}
    </Card>
  );
}

export const policies: ResourceSpec<Policy> = {
  path: 'policies',
  singular: 'retention policy',
  plural: 'retention policies',
  description:
    'Events older than a policy’s days are deleted or anonymized; the chain still verifies.',
  key: (p) => p.id,
  title: (p) => p.name,
  list: (query) => api.ledger.listPolicies({ query }),
  get: (idOrName) => api.ledger.getPolicy({ path: { idOrName } }),
  create: (body) => api.ledger.createPolicy({ body: body as BodyOf<'ledger.createPolicy'> }),
  remove: (idOrName) => api.ledger.deletePolicy({ path: { idOrName } }),
  access: {
    service: 'ledger',
    list: 'listPolicies',
    get: 'getPolicy',
    create: 'createPolicy',
    remove: 'deletePolicy',
  },
  filters: [
    { name: 'service', label: 'Service' },
    { name: 'action', label: 'Action', options: ['delete', 'anonymize'] },
  ],
  columns: [
    { header: 'Name', cell: (p) => p.name },
    { header: 'Days', cell: (p) => p.retentionDays, numeric: true },
    { header: 'Scope', cell: (p) => p.scope },
    { header: 'Action', cell: (p) => p.action },
    { header: 'Last applied', cell: (p) => formatDate(p.lastAppliedAt) },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'retentionDays', label: 'Retention days', kind: 'number', required: true },
    {
      name: 'scope',
      label: 'Scope',
      hint: 'all, service:<service> or action:<action> (a trailing * matches a prefix)',
    },
    { name: 'service', label: 'Service' },
    { name: 'action', label: 'Action', kind: 'select', options: ['delete', 'anonymize'] },
  ],
  details: (p) => [
    ['Id', <code key="id">{p.id}</code>],
    ['Retention', `${p.retentionDays} days`],
    ['Scope', p.scope],
    ['Service', p.service],
    ['Action', p.action],
    ['Last applied', formatDate(p.lastAppliedAt)],
    ['Last affected', (p as { lastAffected?: number | null }).lastAffected ?? '—'],
    ['Created', formatDate(p.createdAt)],
  ],
  more: (p) => <ApplyNow policy={p} />,
};
