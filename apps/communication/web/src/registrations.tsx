import {
  api,
  Card,
  CheckboxField,
  ConfirmButton,
  Empty,
  ErrorBanner,
  Form,
  formatDate,
  Link,
  Loading,
  PageHeader,
  QueryList,
  SelectField,
  Status,
  TextField,
  useCan,
  useMutation,
  useNavigate,
  useParams,
  useQuery,
  useQueryClient,
  type DataOf,
} from '@platform/ui';
import { useState } from 'react';
import { useChannels } from './channels';
import { appPath, ForApp, parseObject } from './common';

type Registration = DataOf<'communication.getRegistration'>;

/** A channel id's name, from the list of every channel (the id while it loads). */
function useChannelName() {
  const all = useChannels();
  return (id: string) => all.data?.find((c) => c.id === id)?.name ?? id;
}

/** Enable or disable, edit, delete: one registration's actions in its row. */
function RowActions({
  registration,
  name,
  mayUpdate,
  mayDelete,
}: {
  registration: Registration;
  name: string;
  mayUpdate: boolean;
  mayDelete: boolean;
}) {
  const queryClient = useQueryClient();
  const path = { appId: registration.appId, id: registration.id };
  const done = () => queryClient.invalidateQueries({ queryKey: ['registrations'] });
  const toggle = useMutation({
    mutationFn: () =>
      api.communication.updateRegistration({ path, body: { enabled: !registration.enabled } }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: () => api.communication.deleteRegistration({ path }),
    onSuccess: done,
  });
  const verb = registration.enabled ? 'Disable' : 'Enable';
  return (
    <div className="ui-actions">
      {mayUpdate && (
        <>
          <button
            type="button"
            className="ui-button"
            aria-label={`${verb} ${name}`}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate()}
          >
            {verb}
          </button>
          <Link
            className="ui-button"
            aria-label={`Edit ${name}`}
            to={appPath(registration.appId, `/channels/${registration.id}/edit`)}
          >
            Edit
          </Link>
        </>
      )}
      {mayDelete && (
        <ConfirmButton
          label="Delete"
          question={`Delete the registration of app ${registration.appId} on channel ${name}?`}
          onConfirm={() => remove.mutate()}
          pending={remove.isPending}
        />
      )}
      <ErrorBanner error={toggle.error ?? remove.error} />
    </div>
  );
}

/** An app's registrations, newest first, by channel (id or name) and paged. */
export function Registrations({
  appId,
  mayUpdate,
  mayDelete,
}: {
  appId: string;
  mayUpdate: boolean;
  mayDelete: boolean;
}) {
  const channelName = useChannelName();
  return (
    <Card title="Registrations">
      <QueryList
        queryKey={['registrations', appId]}
        list={(query) => api.communication.listRegistrations({ path: { appId }, query })}
        filters={[{ name: 'channelId', label: 'Channel' }]}
        rowKey={(r) => r.id}
        empty="This app is registered on no channel (that matches)."
        columns={[
          {
            header: 'Channel',
            cell: (r) => <Link to={`/channels/${r.channelId}`}>{channelName(r.channelId)}</Link>,
          },
          { header: 'Target', cell: (r) => r.target || '—' },
          { header: 'State', cell: (r) => <Status value={r.enabled ? 'enabled' : 'disabled'} /> },
          { header: 'Updated', cell: (r) => formatDate(r.updatedAt) },
          ...(mayUpdate || mayDelete
            ? [
                {
                  header: 'Actions',
                  cell: (r: Registration) => (
                    <RowActions
                      registration={r}
                      name={channelName(r.channelId)}
                      mayUpdate={mayUpdate}
                      mayDelete={mayDelete}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
    </Card>
  );
}

const TARGET_HINT = 'For smtp: email addresses separated by commas; free text for the others';

/** Registers the app on a channel: enabled at once. */
export function RegisterForm({ appId }: { appId: string }) {
  const queryClient = useQueryClient();
  const mayCreateChannel = useCan()('communication', 'createChannel');
  const all = useChannels();
  const [chosen, setChannelId] = useState('');
  const channelId = chosen || (all.data?.[0]?.id ?? '');
  const [target, setTarget] = useState('');
  const [metadata, setMetadata] = useState('');
  const register = useMutation({
    mutationFn: () =>
      api.communication.createRegistration({
        path: { appId },
        body: {
          channelId,
          target,
          metadata: parseObject('metadata', metadata),
        },
      }),
    onSuccess: async () => {
      setTarget('');
      setMetadata('');
      await queryClient.invalidateQueries({ queryKey: ['registrations', appId] });
    },
  });
  if (all.isPending) return <Loading />;
  return (
    <Card title="Register on a channel">
      <ErrorBanner error={all.error} />
      {all.data?.length === 0 ? (
        <Empty>
          No channels yet:{' '}
          {mayCreateChannel ? (
            <>
              <Link to="/channels/new">create one</Link> first.
            </>
          ) : (
            'an admin creates them.'
          )}
        </Empty>
      ) : (
        <Form
          label="Register on a channel"
          onSubmit={() => register.mutate()}
          error={register.error}
          pending={register.isPending}
          submitLabel="Register"
        >
          <SelectField
            label="Channel"
            name="channelId"
            value={channelId}
            options={(all.data ?? []).map((c) => ({
              value: c.id,
              label: `${c.name} (${c.provider})`,
            }))}
            onChange={setChannelId}
          />
          <TextField
            label="Target"
            name="target"
            hint={TARGET_HINT}
            value={target}
            onChange={setTarget}
          />
          <TextField
            label="Metadata"
            name="metadata"
            multiline
            rows={2}
            hint="A JSON object"
            value={metadata}
            onChange={setMetadata}
          />
        </Form>
      )}
    </Card>
  );
}

function EditForm({ registration }: { registration: Registration }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState(registration.target);
  const [metadata, setMetadata] = useState(JSON.stringify(registration.metadata, null, 2));
  const [enabled, setEnabled] = useState(registration.enabled);
  const save = useMutation({
    mutationFn: () =>
      api.communication.updateRegistration({
        path: { appId: registration.appId, id: registration.id },
        body: { target, enabled, metadata: parseObject('metadata', metadata) ?? {} },
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['registrations'] });
      await navigate(appPath(registration.appId));
    },
  });
  return (
    <Form
      onSubmit={() => save.mutate()}
      error={save.error}
      pending={save.isPending}
      onCancel={() => history.back()}
    >
      <TextField
        label="Target"
        name="target"
        hint={TARGET_HINT}
        value={target}
        onChange={setTarget}
      />
      <TextField
        label="Metadata"
        name="metadata"
        multiline
        hint="A JSON object"
        value={metadata}
        onChange={setMetadata}
      />
      <CheckboxField label="Enabled" name="enabled" checked={enabled} onChange={setEnabled} />
    </Form>
  );
}

/** Edits a registration's target, metadata and whether it is enabled. */
export function RegistrationEditPage() {
  const { appId, id } = useParams() as { appId: string; id: string };
  return (
    <ForApp
      appId={appId}
      requires={['communication', 'updateRegistration']}
      title={`Registration ${id}`}
      what="change this app's registrations"
    >
      <RegistrationEdit appId={appId} id={id} />
    </ForApp>
  );
}

function RegistrationEdit({ appId, id }: { appId: string; id: string }) {
  const channelName = useChannelName();
  const registration = useQuery({
    queryKey: ['registrations', appId, 'get', id],
    queryFn: () => api.communication.getRegistration({ path: { appId, id } }),
  });
  if (registration.isPending) return <Loading />;
  return (
    <>
      <PageHeader
        title={
          registration.data
            ? `Edit ${appId} on ${channelName(registration.data.channelId)}`
            : `Registration ${id}`
        }
      >
        <Link to={appPath(appId)}>App {appId}</Link>
      </PageHeader>
      <ErrorBanner error={registration.error} />
      {registration.data && <EditForm registration={registration.data} />}
    </>
  );
}
