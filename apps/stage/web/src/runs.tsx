import {
  api,
  Card,
  Details,
  ErrorBanner,
  formatDate,
  JsonBlock,
  Link,
  Loading,
  PageHeader,
  QueryList,
  Status,
  useParams,
  useQuery,
  type DataOf,
} from '@platform/ui';

type RunDetail = DataOf<'stage.getRun'>;
type Query = NonNullable<Parameters<typeof api.stage.listRuns>[0]['query']>;

const duration = (run: { startedAt: number; finishedAt: number | null }) =>
  run.finishedAt === null ? '—' : `${run.finishedAt - run.startedAt} ms`;

/** An app's workflow runs, newest first, by workflow and status; read again while one runs. */
export function RunsPage() {
  const sid = useParams().sid!;
  return (
    <>
      <PageHeader title="Workflow runs">
        <Link to={`/apps/${sid}`}>App {sid}</Link>
      </PageHeader>
      <QueryList
        queryKey={['apps', sid, 'runs']}
        list={(query) => api.stage.listRuns({ path: { sid }, query: query as Query })}
        refetchInterval={(rows) => (rows?.some((r) => r.status === 'running') ? 2000 : false)}
        filters={[
          { name: 'workflow', label: 'Workflow' },
          { name: 'status', label: 'Status', options: ['running', 'completed', 'failed'] },
        ]}
        rowKey={(r) => r.id}
        href={(r) => `/apps/${sid}/runs/${r.id}`}
        empty="No runs match."
        columns={[
          { header: 'Run', cell: (r) => <code>{r.id}</code> },
          { header: 'Workflow', cell: (r) => r.workflow },
          { header: 'Status', cell: (r) => <Status value={r.status} /> },
          { header: 'Caller', cell: (r) => r.caller },
          { header: 'Started', cell: (r) => formatDate(r.startedAt) },
          { header: 'Duration', cell: (r) => duration(r), numeric: true },
          { header: 'Error', cell: (r) => r.error?.message ?? '—' },
        ]}
      />
    </>
  );
}

function Step({ step }: { step: RunDetail['steps'][number] }) {
  const name = `steps[${step.index}] ${step.block}${step.as ? ` as "${step.as}"` : ''}`;
  return (
    <Card
      title={
        <>
          {name} <Status value={step.error ? 'failed' : 'completed'} />
        </>
      }
    >
      <p className="ui-muted">{step.durationMs} ms</p>
      {step.error && (
        <div className="ui-banner ui-banner-danger" role="alert">
          {step.error}
        </div>
      )}
      <div className="ui-grid">
        <div>
          <h3>Input</h3>
          <JsonBlock value={step.input} label={`Input of ${name}`} />
        </div>
        <div>
          <h3>Output</h3>
          <JsonBlock value={step.output} label={`Output of ${name}`} />
        </div>
      </div>
    </Card>
  );
}

/** One run: its input and result, and each step's resolved input, output and error. */
export function RunPage() {
  const { sid, runId } = useParams() as { sid: string; runId: string };
  const run = useQuery({
    queryKey: ['apps', sid, 'runs', runId],
    queryFn: () => api.stage.getRun({ path: { sid, runId } }),
  });
  if (run.isPending) return <Loading />;
  if (run.error)
    return (
      <>
        <PageHeader title={`Run ${runId}`} />
        <ErrorBanner error={run.error} />
      </>
    );
  const r = run.data;
  return (
    <>
      <PageHeader title={`Run of ${r.workflow}`}>
        <Link to={`/apps/${sid}/runs`}>All runs of {sid}</Link>
      </PageHeader>
      {r.error && (
        <div className="ui-banner ui-banner-danger" role="alert">
          {r.error.code}: {r.error.message}
        </div>
      )}
      <Card>
        <Details
          items={[
            ['Id', <code key="id">{r.id}</code>],
            ['Status', <Status key="status" value={r.status} />],
            ['Caller', r.caller],
            ['Idempotency key', r.idempotencyKey],
            ['Started', formatDate(r.startedAt)],
            ['Finished', formatDate(r.finishedAt)],
            ['Duration', duration(r)],
          ]}
        />
      </Card>
      <div className="ui-grid">
        <Card title="Input">
          <JsonBlock value={r.input} label="Run input" />
        </Card>
        <Card title="Result">
          <JsonBlock value={r.result} label="Run result" />
        </Card>
      </div>
      <h2>Steps</h2>
      {r.steps.length === 0 ? (
        <p className="ui-empty">No step recorded.</p>
      ) : (
        r.steps.map((step) => <Step key={step.index} step={step} />)
      )}
    </>
  );
}
