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
  useMutation,
  type DataOf,
} from '@platform/ui';
import { useEffect, useState } from 'react';

type RunDetail = DataOf<'stage.getRun'>;
type Query = NonNullable<Parameters<typeof api.stage.listRuns>[0]['query']>;

const ACTIVE = ['queued', 'running', 'sleeping', 'waiting'];

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
        refetchInterval={(rows) => (rows?.some((r) => ACTIVE.includes(r.status)) ? 2000 : false)}
        filters={[
          { name: 'workflow', label: 'Workflow' },
          { name: 'status', label: 'Status', options: [...ACTIVE, 'completed', 'failed'] },
        ]}
        rowKey={(r) => r.id}
        href={(r) => `/apps/${sid}/runs/${r.id}`}
        empty="No runs match."
        columns={[
          { header: 'Run', cell: (r) => <code>{r.id}</code> },
          { header: 'Workflow', cell: (r) => r.workflow },
          { header: 'Trigger', cell: (r) => r.trigger },
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

type RunStep = DataOf<'stage.listRunSteps'>[number];
type Run = DataOf<'stage.listRuns'>[number];

function Step({ step }: { step: RunStep }) {
  const name = `${step.path} ${step.block}${step.as ? ` as "${step.as}"` : ''}`;
  const took = step.status === 'running' || step.status === 'waiting' ? 'under way' : `${step.durationMs} ms`; // prettier-ignore
  return (
    <Card
      title={
        <>
          <code>{step.path}</code> {step.block}
          {step.as ? ` as "${step.as}"` : ''} <Status value={step.status} />
        </>
      }
    >
      <p className="ui-muted">
        Started {formatDate(step.startedAt)} · {took}
        {step.attempts > 1 ? ` · ${step.attempts} attempts` : ''}
      </p>
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

/** The run and its steps as the server streams them (SSE) while it is not over. */
function useLiveRun(sid: string, runId: string, over: boolean) {
  const [live, setLive] = useState<{ run?: Run; steps?: RunStep[] }>({});
  const [ended, setEnded] = useState<string | null>(null);
  useEffect(() => {
    if (over) return undefined;
    const source = new EventSource(`/api/v1/stage/apps/${sid}/runs/${runId}/stream`);
    const data = (event: Event) => JSON.parse((event as MessageEvent<string>).data);
    source.addEventListener('run', (event) => setLive((l) => ({ ...l, run: data(event) as Run })));
    source.addEventListener('steps', (event) => setLive((l) => ({ ...l, steps: data(event) as RunStep[] }))); // prettier-ignore
    source.addEventListener('end', (event) => {
      source.close();
      setEnded(data(event).reason as string);
    });
    source.addEventListener('error', () => {
      source.close();
      setEnded('the stream was interrupted');
    });
    return () => source.close();
  }, [sid, runId, over]);
  return { ...live, ended };
}

/** Approve or reject a waiting run; retry a failed one from its failed step. */
function RunActions({ sid, run, onDone }: { sid: string; run: Run; onDone: () => void }) {
  const [which, setWhich] = useState<'current' | 'original'>('current');
  const path = { sid, runId: run.id };
  const act = useMutation({
    mutationFn: (action: 'approve' | 'reject' | 'retry') =>
      action === 'approve'
        ? api.stage.approveRun({ path, body: {} })
        : action === 'reject'
          ? api.stage.rejectRun({ path, body: {} })
          : api.stage.retryRun({ path, body: { workflow: which } }),
    onSuccess: onDone,
  });
  if (run.status !== 'waiting' && run.status !== 'failed') return null;
  return (
    <Card title={run.status === 'waiting' ? 'Waiting' : 'Retry'}>
      {act.error && <ErrorBanner error={act.error} />}
      {run.status === 'waiting' ? (
        <p>
          <button type="button" className="ui-button" onClick={() => act.mutate('approve')}>
            Approve
          </button>{' '}
          <button type="button" className="ui-button" onClick={() => act.mutate('reject')}>
            Reject
          </button>
        </p>
      ) : (
        <p>
          <label>
            Workflow{' '}
            <select value={which} onChange={(e) => setWhich(e.target.value as typeof which)}>
              <option value="current">as it is now</option>
              <option value="original">as the run had it</option>
            </select>
          </label>{' '}
          <button type="button" className="ui-button" onClick={() => act.mutate('retry')}>
            Retry from the failed step
          </button>
        </p>
      )}
    </Card>
  );
}

/**
 * One run: its input and result, and each step (its path, input, output, attempts and timing),
 * followed live while the run is not over.
 */
export function RunPage() {
  const { sid, runId } = useParams() as { sid: string; runId: string };
  const run = useQuery({
    queryKey: ['apps', sid, 'runs', runId],
    queryFn: () => api.stage.getRun({ path: { sid, runId } }),
  });
  const steps = useQuery({
    queryKey: ['apps', sid, 'runs', runId, 'steps'],
    queryFn: () => api.stage.listRunSteps({ path: { sid, runId } }),
  });
  const status = run.data?.status;
  const live = useLiveRun(sid, runId, !status || status === 'completed' || status === 'failed');
  const liveStatus = live.run?.status;
  useEffect(() => {
    // The run ended (or parked) while followed: read its result and steps again.
    if (liveStatus && liveStatus !== status) void Promise.all([run.refetch(), steps.refetch()]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [liveStatus]);
  if (run.isPending) return <Loading />;
  if (run.error)
    return (
      <>
        <PageHeader title={`Run ${runId}`} />
        <ErrorBanner error={run.error} />
      </>
    );
  const r = { ...run.data, ...(live.run ?? {}) } as RunDetail & Run;
  const shown = live.steps ?? steps.data ?? [];
  const refresh = () => void Promise.all([run.refetch(), steps.refetch()]);
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
            ['Trigger', r.trigger],
            ['Caller', r.caller],
            ['Workflows file version', r.fileVersion === null ? '—' : String(r.fileVersion)],
            ['Idempotency key', r.idempotencyKey],
            ['Started', formatDate(r.startedAt)],
            ['Finished', formatDate(r.finishedAt)],
            ['Wakes', r.wakeAt === null ? '—' : formatDate(r.wakeAt)],
            ['Retries', String(r.retries)],
            ['Duration', duration(r)],
          ]}
        />
        {live.run && !live.ended && <p className="ui-muted">Following the run live.</p>}
      </Card>
      <RunActions sid={sid} run={r} onDone={refresh} />
      <div className="ui-grid">
        <Card title="Input">
          <JsonBlock value={r.input} label="Run input" />
        </Card>
        <Card title="Result">
          <JsonBlock value={r.result} label="Run result" />
        </Card>
      </div>
      <h2>Steps</h2>
      {shown.length === 0 ? (
        <p className="ui-empty">No step recorded.</p>
      ) : (
        shown.map((step) => <Step key={step.path} step={step} />)
      )}
    </>
  );
}
