import { useState } from 'react';
import {
  api,
  Card,
  ErrorBanner,
  FilterBar,
  FilterInput,
  Form,
  formatDate,
  formatMicros,
  formatNumber,
  Loading,
  PageHeader,
  SelectField,
  TextField,
  useMutation,
  useQuery,
  useQueryClient,
  type DataOf,
} from '@platform/ui';

type Usage = DataOf<'inference.getKeyUsage'>;

const FIELDS = ['budgetMicros', 'period', 'rpm', 'tpm', 'models', 'cacheTtlSeconds'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

const text = (value: number | string | null | undefined) => (value == null ? '' : String(value));
const number = (value: string) => (value.trim() === '' ? null : Number(value));

function valuesOf(usage: Usage | undefined): Values {
  const limits = usage?.limits;
  return {
    budgetMicros: text(limits?.budgetMicros),
    period: limits?.period ?? '',
    rpm: text(limits?.rpm),
    tpm: text(limits?.tpm),
    models: limits?.models?.join(', ') ?? '',
    cacheTtlSeconds: text(limits?.cacheTtlSeconds),
  };
}

function Counts({ usage }: { usage: Usage }) {
  const stats: [string, string][] = [
    [
      'This minute',
      `${formatNumber(usage.minute.requests)} requests, ${formatNumber(usage.minute.tokens)} tokens`,
    ],
    [
      'Today (UTC)',
      `${formatNumber(usage.day.requests)} requests, ${formatMicros(usage.day.costMicros)}`,
    ],
    [
      'This month',
      `${formatNumber(usage.month.requests)} requests, ${formatMicros(usage.month.costMicros)}`,
    ],
    [
      'Budget left',
      usage.budget
        ? `${formatMicros(usage.budget.remainingMicros)} of ${formatMicros(usage.budget.budgetMicros)} until ${formatDate(usage.budget.resetsAt)}`
        : 'No budget',
    ],
  ];
  return (
    <dl className="inference-stats" aria-label="Key usage">
      {stats.map(([label, value]) => (
        <div key={label} className="ui-card">
          <dt className="ui-muted">{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The key's limits, as a form (made again once they are saved). */
function LimitsForm({ keyId, usage }: { keyId: string; usage: Usage }) {
  const client = useQueryClient();
  const [values, setValues] = useState<Values>(valuesOf(usage));
  const set = (name: keyof Values) => (value: string) =>
    setValues((v) => ({ ...v, [name]: value }));
  const save = useMutation({
    mutationFn: () =>
      api.inference.setKeyLimits({
        path: { keyId },
        body: {
          budgetMicros: number(values.budgetMicros),
          period: (values.period || null) as 'day' | 'month' | null,
          rpm: number(values.rpm),
          tpm: number(values.tpm),
          models: values.models.trim()
            ? values.models
                .split(',')
                .map((m) => m.trim())
                .filter(Boolean)
            : null,
          cacheTtlSeconds: number(values.cacheTtlSeconds),
        },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['key-usage', keyId] }),
  });
  return (
    <Card title="Limits">
      <Form
        label="Limits"
        fields={FIELDS}
        onSubmit={() => save.mutate()}
        error={save.error}
        pending={save.isPending}
        submitLabel="Save limits"
      >
        <TextField
          label="Budget (micro-dollars)"
          name="budgetMicros"
          type="number"
          value={values.budgetMicros}
          onChange={set('budgetMicros')}
          hint="1 000 000 = $1; empty: no budget"
        />
        <SelectField
          label="Budget period"
          name="period"
          value={values.period}
          onChange={set('period')}
          options={[{ value: '', label: '—' }, 'day', 'month']}
        />
        <TextField
          label="Requests per minute"
          name="rpm"
          type="number"
          value={values.rpm}
          onChange={set('rpm')}
        />
        <TextField
          label="Tokens per minute"
          name="tpm"
          type="number"
          value={values.tpm}
          onChange={set('tpm')}
        />
        <TextField
          label="Allowed models"
          name="models"
          value={values.models}
          onChange={set('models')}
          hint="Comma-separated; empty: any model"
        />
        <TextField
          label="Cache answers for (seconds)"
          name="cacheTtlSeconds"
          type="number"
          value={values.cacheTtlSeconds}
          onChange={set('cacheTtlSeconds')}
          hint="Non-streamed chats; empty: only when a request asks"
        />
      </Form>
    </Card>
  );
}

/** One platform API key: its usage as every instance counted it, and its limits (its owner, admins). */
export function KeysPage() {
  const [keyId, setKeyId] = useState('');
  const usage = useQuery({
    queryKey: ['key-usage', keyId],
    queryFn: () => api.inference.getKeyUsage({ path: { keyId } }),
    enabled: keyId !== '',
  });
  return (
    <>
      <PageHeader title="Keys">
        A platform API key&apos;s budget and limits, enforced on every inference call made with it,
        and what it used. Its owner and admins only.
      </PageHeader>
      <FilterBar>
        <FilterInput label="Key id or name" value={keyId} onChange={(v) => setKeyId(v.trim())} />
      </FilterBar>
      <ErrorBanner error={usage.error} />
      {keyId === '' ? null : usage.isPending ? (
        <Loading />
      ) : usage.data ? (
        <>
          <Counts usage={usage.data} />
          <LimitsForm key={usage.data.limits?.updated ?? 'none'} keyId={keyId} usage={usage.data} />
        </>
      ) : null}
    </>
  );
}
