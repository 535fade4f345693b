import {
  api,
  Card,
  Form,
  Link,
  PageHeader,
  SelectField,
  TextField,
  useNavigate,
  useParams,
  useQuery,
} from '@platform/ui';
import { useState } from 'react';
import { appPath, ForApp, useMayForApp } from './common';
import { RegisterForm, Registrations } from './registrations';

/** Picks the app whose registrations, messages and deliveries to see: a sandbox app, or any id. */
export function AppsPage() {
  const navigate = useNavigate();
  const [appId, setAppId] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const apps = useQuery({
    queryKey: ['stage', 'apps'],
    queryFn: () => api.stage.listApps({ query: { limit: 1000 } }),
  });
  const sandbox = apps.data ?? [];
  const open = () => {
    const id = appId.trim();
    if (!id) setError(new Error('An app id is required (appId)'));
    else void navigate(appPath(id));
  };
  return (
    <>
      <PageHeader title="Apps">
        Registrations, messages and deliveries belong to an app: a published app of the sandbox, or
        any app id the API accepts (1-100 characters of letters, digits and . _ : -).
      </PageHeader>
      <Card title="Choose an app">
        <Form onSubmit={open} error={error} submitLabel="Open" label="Choose an app">
          <SelectField
            label="Sandbox app"
            name="sandboxApp"
            value={sandbox.some((a) => a.sid === appId) ? appId : ''}
            hint={apps.error ? 'The sandbox’s apps cannot be listed now.' : undefined}
            options={[
              {
                value: '',
                label: apps.isPending
                  ? 'Loading…'
                  : sandbox.length
                    ? 'Choose a published app'
                    : 'No published apps',
              },
              ...sandbox.map((a) => ({ value: a.sid, label: `${a.title ?? a.name} (${a.sid})` })),
            ]}
            onChange={setAppId}
          />
          <TextField
            label="App id"
            name="appId"
            required
            hint="Chosen above, or typed"
            value={appId}
            onChange={setAppId}
          />
        </Form>
      </Card>
    </>
  );
}

/** One app: its registrations on channels (enable, disable, edit, delete) and a new one. */
export function AppPage() {
  const appId = useParams().appId!;
  const may = useMayForApp(appId);
  return (
    <>
      <PageHeader
        title={`App ${appId}`}
        actions={
          <>
            {may('send') && (
              <Link className="ui-button ui-button-primary" to={appPath(appId, '/send')}>
                Send a message
              </Link>
            )}
            {may('listDeliveries') && (
              <Link className="ui-button" to={appPath(appId, '/deliveries')}>
                Deliveries
              </Link>
            )}
            {may('listTemplates') && (
              <Link className="ui-button" to={appPath(appId, '/templates')}>
                Templates
              </Link>
            )}
          </>
        }
      >
        <Link to="/apps">All apps</Link>
      </PageHeader>
      <ForApp
        appId={appId}
        requires={['communication', 'listRegistrations']}
        title={`Registrations of ${appId}`}
        what="see this app's registrations"
      >
        <Registrations
          appId={appId}
          mayUpdate={may('updateRegistration')}
          mayDelete={may('deleteRegistration')}
        />
        {may('createRegistration') && <RegisterForm appId={appId} />}
      </ForApp>
    </>
  );
}
