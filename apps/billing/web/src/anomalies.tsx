import { useState, type FormEvent } from 'react';
import {
  api,
  Card,
  DataTable,
  ErrorBanner,
  formatCents,
  Status,
  useMutation,
  useQuery,
  useQueryClient,
  type DataOf,
} from '@platform/ui';

// The anomalies of the Budgets page (budgets.tsx): listed with their size, each open one with a
// reason field to dismiss it.

type Anomaly = DataOf<'billing.getAnomaly'>;

const money = (cents: number, currency = 'USD') => formatCents(cents, currency);

/** What an anomaly is the spend of: a catalog service (its name), or a provider. */
const subjectOf = (a: Anomaly) => (a.service ? (a.serviceName ?? a.service) : a.provider);

function Dismiss({ anomaly, what }: { anomaly: Anomaly; what: string }) {
  const [reason, setReason] = useState('');
  const client = useQueryClient();
  const dismiss = useMutation({
    mutationFn: () => api.billing.dismissAnomaly({ path: { id: anomaly.id }, body: { reason } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['anomalies'] }),
  });
  const submit = (event: FormEvent) => (event.preventDefault(), dismiss.mutate());
  return (
    <form className="billing-dismiss" aria-label={`Dismiss ${what}`} onSubmit={submit}>
      <ErrorBanner error={dismiss.error} />
      <input
        aria-label="Reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        placeholder="Reason"
      />
      <button className="ui-button" type="submit" disabled={dismiss.isPending}>
        Dismiss
      </button>
    </form>
  );
}

export function AnomaliesCard() {
  const anomalies = useQuery({
    queryKey: ['anomalies'],
    queryFn: () => api.billing.listAnomalies({ query: { limit: 50 } }),
  });
  return (
    <Card title="Anomalies">
      <ErrorBanner error={anomalies.error} />
      {anomalies.data && (
        <DataTable
          caption="Anomalies"
          rows={anomalies.data}
          rowKey={(a) => a.id}
          empty="No anomaly: every day's spend was close to the days before."
          columns={[
            { header: 'Day', cell: (a) => a.day },
            { header: 'Of', cell: subjectOf },
            { header: 'Expected', cell: (a) => money(a.expected), numeric: true },
            { header: 'Actual', cell: (a) => money(a.actual), numeric: true },
            { header: 'Size', cell: (a) => money(a.size), numeric: true },
            { header: 'Status', cell: (a) => <Status value={a.status} /> },
            {
              header: 'Reason',
              cell: (a) =>
                a.status === 'open' ? (
                  <Dismiss anomaly={a} what={`${subjectOf(a)} on ${a.day}`} />
                ) : (
                  (a.reason ?? '—')
                ),
            },
          ]}
        />
      )}
    </Card>
  );
}
