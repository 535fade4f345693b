import {
  api,
  Card,
  Details,
  ErrorBanner,
  Form,
  formatDate,
  JsonBlock,
  Link,
  TextField,
  useCan,
  useMutation,
  useNavigate,
  useQueryClient,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';
import { useState } from 'react';
import { AppOps } from './app-ops';

type App = DataOf<'stage.getApp'>;

/** Where the app lives: its page, its session, its runs; publish another session; the studio. */
function AppMore({ app }: { app: App }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [sessionId, setSessionId] = useState('');
  const can = useCan();
  // A studio session copies the served session's files: for whom may read that session (the API
  // shows its id only to them).
  const mayStudio = app.sessionId !== null && can('stage', 'createStudioSession');
  const publish = useMutation({
    mutationFn: () =>
      api.stage.publishApp({ path: { sid: app.sid }, body: { sessionId: sessionId.trim() } }),
    onSuccess: async () => {
      setSessionId('');
      await queryClient.invalidateQueries({ queryKey: ['apps'] });
    },
  });
  const studio = useMutation({
    mutationFn: () => api.stage.createStudioSession({ body: { appSid: app.sid } }),
    onSuccess: (session) => navigate(`/sessions/${session.id}`),
  });
  return (
    <div className="ui-grid">
      <Card
        title="Published"
        actions={
          <>
            {can('stage', 'listRuns', app) && (
              <Link className="ui-button" to={`/apps/${app.sid}/runs`}>
                Workflow runs
              </Link>
            )}
            {mayStudio && (
              <button
                type="button"
                className="ui-button"
                disabled={studio.isPending}
                onClick={() => studio.mutate()}
              >
                Edit in a studio session
              </button>
            )}
          </>
        }
      >
        <ErrorBanner error={studio.error} />
        <Details
          items={[
            [
              'Page',
              <a key="url" href={`${app.origin}/`}>
                {app.origin}
              </a>,
            ],
            [
              'Session',
              app.sessionId && (
                <Link key="s" to={`/sessions/${app.sessionId}`}>
                  {app.sessionId}
                </Link>
              ),
            ],
            ['Published', formatDate(app.publishedAt)],
            [
              'Repository',
              app.repository ? (
                <a key="r" href={app.repository.url}>
                  {app.repository.fullName}
                </a>
              ) : null,
            ],
          ]}
        />
        {can('stage', 'publishApp', app) && (
          <Form
            label="Publish a session"
            submitLabel="Publish"
            onSubmit={() => publish.mutate()}
            error={publish.error}
            pending={publish.isPending}
          >
            <TextField
              label="Session to serve"
              name="sessionId"
              value={sessionId}
              onChange={setSessionId}
              hint="The app serves this session's files (one you may read) from now on"
            />
          </Form>
        )}
      </Card>
      <Card title="Config">
        <JsonBlock value={app.config} label="Config" />
      </Card>
    </div>
  );
}

/** Published apps: each serves one session on its own origin, with its workflows' runs. */
export const apps: ResourceSpec<App> = {
  path: 'apps',
  singular: 'app',
  plural: 'apps',
  description: 'Published apps: each serves one session on an origin of its own.',
  key: (app) => app.sid,
  title: (app) => app.title ?? app.name,
  list: (query) => api.stage.listApps({ query }),
  get: (sid) => api.stage.getApp({ path: { sid } }),
  create: (body) => api.stage.createApp({ body: body as { sessionId: string; name: string } }),
  update: (sid, body) => api.stage.updateApp({ path: { sid }, body }),
  remove: (sid) => api.stage.deleteApp({ path: { sid } }),
  access: { service: 'stage', create: 'createApp', update: 'updateApp', remove: 'deleteApp' },
  filters: [
    { name: 'name', label: 'Name contains' },
    { name: 'sessionId', label: 'Session' },
  ],
  columns: [
    { header: 'Name', cell: (app) => app.name },
    { header: 'Title', cell: (app) => app.title ?? '—' },
    { header: 'Sid', cell: (app) => <code>{app.sid}</code> },
    { header: 'Session', cell: (app) => (app.sessionId ? <code>{app.sessionId}</code> : '—') },
    { header: 'Visitors', cell: (app) => app.visibility },
    { header: 'Published', cell: (app) => formatDate(app.publishedAt) },
  ],
  fields: [
    {
      name: 'sessionId',
      label: 'Session',
      required: true,
      createOnly: true,
      hint: 'The session it serves',
    },
    { name: 'name', label: 'Name', required: true },
    { name: 'title', label: 'Title' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    {
      name: 'visibility',
      label: 'Visitors',
      kind: 'select',
      options: [
        { value: 'private', label: 'Private: people signed in to the platform' },
        { value: 'public', label: 'Public: anyone, anonymously' },
      ],
      hint: 'Who may open it on its own origin',
    },
    {
      name: 'connectOrigins',
      label: 'Other origins its pages may fetch',
      kind: 'list',
      hint: 'Comma-separated, e.g. https://api.example.com',
    },
    {
      name: 'scopes',
      label: "Its backend's scopes",
      kind: 'list',
      hint: 'What its platform calls may do, e.g. inference:invoke, stage:write',
    },
    { name: 'config', label: 'Config', kind: 'json' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (app) => [
    ['Sid', <code key="sid">{app.sid}</code>],
    ['Name', app.name],
    ['Visitors', app.visibility === 'public' ? 'anyone' : 'signed-in people'],
    ['Scopes', app.scopes.join(', ') || '—'],
    ['Description', app.description],
    ['Created', formatDate(app.createdAt)],
    ['Updated', formatDate(app.updatedAt)],
  ],
  more: (app) => (
    <>
      <AppMore app={app} />
      <AppOps app={app} />
    </>
  ),
};
