import { useState } from 'react';
import {
  api,
  Card,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Form,
  SelectField,
  TextField,
  useCan,
  useMutation,
  useQuery,
  useQueryClient,
  type BodyOf,
  type DataOf,
} from '@platform/ui';

// The owner rules (items to catalog services) and the allocation rules (shared costs split) of
// the Owners page: lists with a form to add one, removal for those who may.

type Rule = DataOf<'billing.listOwnerRules'>[number];
type Allocation = DataOf<'billing.listAllocations'>[number];

const conditions = (r: Rule) =>
  [
    r.provider && `provider ${r.provider}`,
    r.service && `service ${r.service}`,
    r.focusColumn && `${r.focusColumn} = ${r.focusValue}`,
    r.tag && `tag ${r.tag}`,
  ]
    .filter(Boolean)
    .join(', ');
const selectorText = (s: Allocation['selector'] | null) =>
  s
    ? Object.entries(s)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : '—';

/** Invalidates every query of this page once a change is made. */
export function useChange<T, V = void>(fn: (variables: V) => Promise<T>, after?: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      after?.();
      return client.invalidateQueries({ queryKey: ['owners'] });
    },
  });
}

const RULE_FIELDS = [
  'target',
  'provider',
  'service',
  'focusColumn',
  'focusValue',
  'tag',
  'priority',
] as const;

export function RulesCard() {
  const can = useCan();
  const rules = useQuery({
    queryKey: ['owners', 'rules'],
    queryFn: () => api.billing.listOwnerRules({ query: { limit: 1000 } }),
  });
  const [form, setForm] = useState<Record<string, string>>({});
  const body = () => {
    const values = Object.fromEntries(Object.entries(form).filter(([, v]) => v.trim() !== ''));
    if (values.priority) return { ...values, priority: Number(values.priority) };
    return values;
  };
  const create = useChange(
    () => api.billing.createOwnerRule({ body: body() as BodyOf<'billing.createOwnerRule'> }),
    () => setForm({}),
  );
  const remove = useChange((id: string) => api.billing.deleteOwnerRule({ path: { id } }));
  const field = (name: (typeof RULE_FIELDS)[number], label: string, hint?: string) => (
    <TextField
      key={name}
      name={name}
      label={label}
      hint={hint}
      value={form[name] ?? ''}
      onChange={(v) => setForm({ ...form, [name]: v })}
    />
  );
  return (
    <Card title="Owner rules">
      <ErrorBanner error={rules.error ?? remove.error} />
      <DataTable
        caption="Owner rules"
        rows={rules.data ?? []}
        rowKey={(r) => r.id}
        empty="No rule: items resolve by their service's id or name alone."
        columns={[
          { header: 'Priority', cell: (r) => r.priority, numeric: true },
          { header: 'Items with', cell: conditions },
          { header: 'Resolve to', cell: (r) => r.target.name ?? r.target.id },
          { header: 'Owner', cell: (r) => r.target.owner ?? '—' },
          {
            header: '',
            cell: (r) =>
              can('billing', 'deleteOwnerRule') && (
                <ConfirmButton
                  label="Remove"
                  question={`Remove the rule to ${r.target.name ?? r.target.id}?`}
                  onConfirm={() => remove.mutate(r.id)}
                />
              ),
          },
        ]}
      />
      {can('billing', 'createOwnerRule') && (
        <Form
          label="New owner rule"
          submitLabel="Add rule"
          onSubmit={() => create.mutate()}
          error={create.error}
          pending={create.isPending}
          fields={RULE_FIELDS}
        >
          {field('target', 'Catalog service', 'Id or name')}
          {field('provider', 'Provider')}
          {field('service', 'Service', 'The raw service, e.g. Amazon RDS')}
          {field('focusColumn', 'FOCUS column', 'e.g. ServiceName')}
          {field('focusValue', 'FOCUS value')}
          {field('tag', 'Tag', 'key=value')}
          {field('priority', 'Priority', 'Lower first; after the last by default')}
        </Form>
      )}
    </Card>
  );
}

/** `checkout=50, search=50` as shares. */
const sharesOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const at = s.lastIndexOf('=');
      return { service: s.slice(0, at).trim(), percent: Number(s.slice(at + 1)) };
    });

export function AllocationsCard() {
  const can = useCan();
  const list = useQuery({
    queryKey: ['owners', 'allocations'],
    queryFn: () => api.billing.listAllocations({ query: { limit: 1000 } }),
  });
  const empty = {
    name: '',
    service: '',
    method: 'fixed',
    shares: '',
    basisTag: '',
    basisProvider: '',
  };
  const [form, setForm] = useState(empty);
  const body = () => ({
    name: form.name,
    selector: { catalogService: form.service },
    method: form.method as 'fixed' | 'proportional',
    ...(form.method === 'fixed'
      ? { shares: sharesOf(form.shares) }
      : {
          basis: {
            ...(form.basisTag && { tag: form.basisTag }),
            ...(form.basisProvider && { provider: form.basisProvider }),
          },
        }),
  });
  const create = useChange(
    () => api.billing.createAllocation({ body: body() as BodyOf<'billing.createAllocation'> }),
    () => setForm(empty),
  );
  const remove = useChange((id: string) =>
    api.billing.deleteAllocation({ path: { idOrName: id } }),
  );
  const text = (name: keyof typeof empty, label: string, hint?: string) => (
    <TextField
      name={name}
      label={label}
      hint={hint}
      value={form[name]}
      onChange={(v) => setForm({ ...form, [name]: v })}
    />
  );
  return (
    <Card title="Allocations">
      <ErrorBanner error={list.error ?? remove.error} />
      <DataTable
        caption="Allocations"
        rows={list.data ?? []}
        rowKey={(a) => a.id}
        empty="No allocation: every item counts whole for its catalog service."
        columns={[
          { header: 'Name', cell: (a) => a.name },
          { header: 'Takes', cell: (a) => selectorText(a.selector) },
          {
            header: 'Split',
            cell: (a) =>
              a.method === 'fixed'
                ? a.shares.map((s) => `${s.service.name ?? s.service.id} ${s.percent}%`).join(', ')
                : `in proportion to spend on ${selectorText(a.basis)}`,
          },
          {
            header: '',
            cell: (a) =>
              can('billing', 'deleteAllocation') && (
                <ConfirmButton
                  label="Remove"
                  question={`Remove the allocation ${a.name}?`}
                  onConfirm={() => remove.mutate(a.id)}
                />
              ),
          },
        ]}
      />
      {can('billing', 'createAllocation') && (
        <Form
          label="New allocation"
          submitLabel="Add allocation"
          onSubmit={() => create.mutate()}
          error={create.error}
          pending={create.isPending}
          fields={['name', 'selector', 'shares', 'basis']}
        >
          {text('name', 'Name')}
          {text('service', 'Shared catalog service', 'Id or name, e.g. shared-db')}
          <SelectField
            name="method"
            label="Split"
            value={form.method}
            onChange={(v) => setForm({ ...form, method: v })}
            options={['fixed', 'proportional']}
          />
          {form.method === 'fixed'
            ? text('shares', 'Shares', 'checkout=60, search=40 (adding up to 100)')
            : [
                text('basisTag', 'In proportion to items tagged'),
                text('basisProvider', 'Or of provider'),
              ]}
        </Form>
      )}
    </Card>
  );
}
