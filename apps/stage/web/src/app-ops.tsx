import {
  api,
  Badge,
  Card,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Form,
  formatDate,
  Loading,
  SelectField,
  Status,
  TextField,
  useCan,
  useMutation,
  useQuery,
  useQueryClient,
  type Column,
  type DataOf,
  type Tone,
} from '@platform/ui';
import { useEffect, useState } from 'react';

type App = DataOf<'stage.getApp'>;
type Line = DataOf<'stage.listAppLogs'>[number];
type Secret = DataOf<'stage.listAppSecrets'>[number];
type Schedule = DataOf<'stage.listAppSchedules'>[number];

const TONE: Record<Line['level'], Tone> = {
  debug: 'neutral',
  info: 'accent',
  log: 'neutral',
  warn: 'warning',
  error: 'danger',
};
const LEVELS = ['any', 'debug', 'info', 'log', 'warn', 'error'];
/** Lines shown at once: the newest. */
const SHOWN = 300;

const lineColumns: Column<Line>[] = [
  { header: 'Time', cell: (l) => formatDate(l.time) },
  { header: 'Level', cell: (l) => <Badge tone={TONE[l.level]}>{l.level}</Badge> },
  { header: 'Message', cell: (l) => <pre className="stage-log-line">{l.message}</pre> },
  {
    header: 'Request',
    cell: (l) => (l.requestId ? <code>{l.requestId}</code> : <span className="ui-muted">—</span>),
  },
  { header: 'Source', cell: (l) => (l.schedule ? `schedule ${l.schedule}` : l.source) },
];

/**
 * The backend's console lines, newest first; "Follow" adds new ones as they are logged (the live
 * stream, Server-Sent Events) until stopped or the stream ends.
 */
function Logs({ sid }: { sid: string }) {
  const [level, setLevel] = useState('any');
  const [follow, setFollow] = useState(false);
  const [live, setLive] = useState<Line[]>([]);
  const [ended, setEnded] = useState<string | null>(null);
  const query: { level?: string } = level === 'any' ? {} : { level };
  const lines = useQuery({
    queryKey: ['apps', sid, 'logs', level],
    queryFn: () => api.stage.listAppLogs({ path: { sid }, query: { limit: 100, ...query } }),
  });
  const newest = lines.data?.[0]?.id ?? 0;
  const ready = lines.data !== undefined;
  useEffect(() => {
    if (!follow || !ready) return;
    const params = new URLSearchParams({
      after: String(newest),
      ...(query.level ? { level } : {}),
    });
    const source = new EventSource(`/api/v1/stage/apps/${sid}/logs/stream?${params}`);
    source.addEventListener('log', (event) => {
      const line = JSON.parse((event as MessageEvent<string>).data) as Line;
      setLive((shown) => [line, ...shown].slice(0, SHOWN));
    });
    const stop = (reason: string) => {
      source.close();
      setEnded(reason);
      setFollow(false);
    };
    source.addEventListener('end', (event) =>
      stop(JSON.parse((event as MessageEvent<string>).data).reason),
    );
    source.addEventListener('error', () => stop('the stream was interrupted'));
    return () => source.close();
    // Opened again when the filter changes; `newest` is read once the first page is there.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [follow, sid, level, ready]);
  const rows = [...live, ...(lines.data ?? [])].slice(0, SHOWN);
  const toggle = () => {
    // Stopped: what came live is in the list read again.
    if (follow) void lines.refetch();
    setLive([]);
    setEnded(null);
    setFollow(!follow);
  };
  const changeLevel = (next: string) => {
    setLive([]);
    setLevel(next);
  };
  return (
    <Card
      title="Backend logs"
      actions={
        <button type="button" className="ui-button" onClick={toggle}>
          {follow ? 'Stop following' : 'Follow live'}
        </button>
      }
    >
      <SelectField
        label="Level"
        name="level"
        value={level}
        onChange={changeLevel}
        options={LEVELS}
      />
      {follow && (
        <p className="ui-muted" role="status">
          Following: new lines appear on top.
        </p>
      )}
      {ended && <p className="ui-muted">The live view ended: {ended}.</p>}
      <ErrorBanner error={lines.error} />
      {lines.isPending ? (
        <Loading />
      ) : (
        <DataTable
          rows={rows}
          columns={lineColumns}
          rowKey={(l) => String(l.id)}
          caption="console.* of the app's backend, newest first"
          empty="Nothing logged yet: console.log in the backend shows here."
        />
      )}
    </Card>
  );
}

/** The app's secrets: names and times only; set (write-only) and delete. */
function Secrets({ app }: { app: App }) {
  const sid = app.sid;
  const can = useCan();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const secrets = useQuery({
    queryKey: ['apps', sid, 'secrets'],
    queryFn: () => api.stage.listAppSecrets({ path: { sid } }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['apps', sid, 'secrets'] });
  const set = useMutation({
    mutationFn: () => api.stage.setAppSecret({ path: { sid, name: name.trim() }, body: { value } }),
    onSuccess: async () => {
      setName('');
      setValue('');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (secret: string) => api.stage.deleteAppSecret({ path: { sid, name: secret } }),
    onSuccess: refresh,
  });
  const columns: Column<Secret>[] = [
    { header: 'Name', cell: (s) => <code>env.{s.name}</code> },
    { header: 'Set', cell: (s) => formatDate(s.updatedAt) },
  ];
  if (can('stage', 'deleteAppSecret', app))
    columns.push({
      header: 'Actions',
      cell: (s) => (
        <ConfirmButton
          label={`Delete ${s.name}`}
          confirmLabel="Delete"
          question={`The backend loses env.${s.name} from its next request.`}
          onConfirm={() => remove.mutate(s.name)}
          pending={remove.isPending}
        />
      ),
    });
  return (
    <Card title="Secrets">
      <ErrorBanner error={secrets.error ?? remove.error} />
      <DataTable
        rows={secrets.data ?? []}
        columns={columns}
        rowKey={(s) => s.name}
        busy={secrets.isPending}
        empty="No secrets: the backend reads each as env.NAME."
      />
      {can('stage', 'setAppSecret', app) && (
        <Form
          label="Set a secret"
          submitLabel="Set"
          onSubmit={() => set.mutate()}
          error={set.error}
          pending={set.isPending}
        >
          <TextField
            label="Name"
            name="name"
            value={name}
            onChange={setName}
            hint="Like an environment variable: API_TOKEN"
          />
          <TextField
            label="Value"
            name="value"
            type="password"
            value={value}
            onChange={setValue}
            hint="Stored encrypted; never shown again"
          />
        </Form>
      )}
    </Card>
  );
}

/** The schedules of the app's config, each with its next tick and its last runs. */
function Schedules({ sid }: { sid: string }) {
  const schedules = useQuery({
    queryKey: ['apps', sid, 'schedules'],
    queryFn: () => api.stage.listAppSchedules({ path: { sid }, query: { runs: 5 } }),
    refetchInterval: 10_000,
  });
  const columns: Column<Schedule>[] = [
    { header: 'Name', cell: (s) => s.name },
    { header: 'Cron', cell: (s) => <code>{s.cron}</code> },
    {
      header: 'Runs',
      cell: (s) => (s.route ? `${s.method} ${s.route}` : `workflow ${s.workflow}`),
    },
    { header: 'Next', cell: (s) => formatDate(s.nextRunAt) },
    {
      header: 'Last runs',
      cell: (s) =>
        s.runs.length === 0 ? (
          <span className="ui-muted">none yet</span>
        ) : (
          s.runs.map((r) => (
            <span key={r.id} title={r.error ?? `${formatDate(r.scheduledAt)} ${r.id}`}>
              <Status value={r.status} />{' '}
            </span>
          ))
        ),
    },
  ];
  return (
    <Card title="Schedules">
      <ErrorBanner error={schedules.error} />
      <DataTable
        rows={schedules.data ?? []}
        columns={columns}
        rowKey={(s) => s.name}
        busy={schedules.isPending}
        empty='No schedules: set config.schedules, e.g. { "nightly": { "cron": "0 3 * * *", "route": "/cleanup" } }.'
      />
    </Card>
  );
}

/** What the app's backend did: its logs, schedules and secrets, for those who own the app. */
export function AppOps({ app }: { app: App }) {
  const can = useCan();
  return (
    <>
      {can('stage', 'listAppLogs', app) && <Logs sid={app.sid} />}
      {can('stage', 'listAppSchedules', app) && <Schedules sid={app.sid} />}
      {can('stage', 'listAppSecrets', app) && <Secrets app={app} />}
    </>
  );
}
