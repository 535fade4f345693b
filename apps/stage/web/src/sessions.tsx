import {
  api,
  Card,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Form,
  formatDate,
  Link,
  Loading,
  PageHeader,
  TextField,
  useCan,
  useMutation,
  useNavigate,
  useQuery,
} from '@platform/ui';
import { useState } from 'react';
import { forgetSession, recentSessions, rememberSession, type RecentSession } from './recent';

/** Sessions: a new one, one opened by id, the ones of this browser, and the studio sessions. */
export function SessionsPage() {
  const navigate = useNavigate();
  const [recent, setRecent] = useState(recentSessions);
  const [openId, setOpenId] = useState('');
  const mayCreate = useCan()('stage', 'createSession');
  const create = useMutation({
    mutationFn: () => api.stage.createSession({ body: {} }),
    onSuccess: async (session) => {
      rememberSession(session.id);
      await navigate(`/sessions/${session.id}`);
    },
  });
  const forget = (id: string) => {
    forgetSession(id);
    setRecent(recentSessions());
  };
  return (
    <>
      <PageHeader
        title="Sessions"
        actions={
          mayCreate && (
            <button
              type="button"
              className="ui-button ui-button-primary"
              disabled={create.isPending}
              onClick={() => create.mutate()}
            >
              {create.isPending ? 'Creating…' : 'New session'}
            </button>
          )
        }
      >
        Versioned files rendered into a live preview. A session's id is its address: keep it to come
        back.
      </PageHeader>
      <ErrorBanner error={create.error} />
      <div className="ui-grid">
        <Card title="In this browser">
          <DataTable<RecentSession>
            rows={recent}
            rowKey={(s) => s.id}
            href={(s) => `/sessions/${s.id}`}
            empty="No session opened in this browser yet."
            columns={[
              { header: 'Session', cell: (s) => <code>{s.id}</code> },
              { header: 'Opened', cell: (s) => formatDate(s.openedAt) },
              {
                header: 'Actions',
                cell: (s) => (
                  <ConfirmButton
                    label={`Forget ${s.id}`}
                    question={`Forget session ${s.id} in this browser? Its files stay until retention reclaims it.`}
                    confirmLabel="Forget"
                    onConfirm={() => forget(s.id)}
                  />
                ),
              },
            ]}
          />
        </Card>
        <Card title="Open a session">
          <Form
            label="Open a session"
            submitLabel="Open"
            onSubmit={() => void navigate(`/sessions/${encodeURIComponent(openId.trim())}`)}
          >
            <TextField label="Session id" name="id" value={openId} onChange={setOpenId} />
          </Form>
        </Card>
      </div>
      <StudioSessions />
    </>
  );
}

/** Sessions bound to an app (the studio edits apps in them). */
function StudioSessions() {
  const sessions = useQuery({
    queryKey: ['studio', 'sessions'],
    queryFn: () => api.stage.listStudioSessions({ query: {} }),
  });
  return (
    <Card title="Studio sessions">
      <ErrorBanner error={sessions.error} />
      {sessions.isPending ? (
        <Loading />
      ) : (
        <DataTable
          rows={sessions.data ?? []}
          rowKey={(s) => s.id}
          href={(s) => `/sessions/${s.id}`}
          empty="No studio session: open one on an app's page."
          columns={[
            { header: 'Session', cell: (s) => <code>{s.id}</code> },
            { header: 'App', cell: (s) => <Link to={`/apps/${s.appSid}`}>{s.appSid}</Link> },
            { header: 'Files', cell: (s) => s.fileCount, numeric: true },
            { header: 'Last used', cell: (s) => formatDate(s.lastAccessedAt) },
          ]}
        />
      )}
    </Card>
  );
}
