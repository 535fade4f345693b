import {
  api,
  Empty,
  ErrorBanner,
  Form,
  Link,
  Loading,
  PageHeader,
  SelectField,
  TextField,
  useMutation,
  useNavigate,
  useParams,
  useQuery,
  useQueryClient,
} from '@platform/ui';
import { useState } from 'react';
import { useChannels } from './channels';
import { appPath, ForApp, parseObject } from './common';

/** Sends a message on one of the app's enabled registrations; then shows its delivery. */
export function SendPage() {
  const appId = useParams().appId!;
  return (
    <ForApp
      appId={appId}
      requires={['communication', 'send']}
      title="Send a message"
      what="send in this app's name"
    >
      <SendMessage appId={appId} />
    </ForApp>
  );
}

function SendMessage({ appId }: { appId: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const all = useChannels();
  const registrations = useQuery({
    queryKey: ['registrations', appId, { limit: 1000 }],
    queryFn: () => api.communication.listRegistrations({ path: { appId }, query: { limit: 1000 } }),
  });
  const options = (registrations.data ?? [])
    .filter((r) => r.enabled)
    .map((r) => {
      const channel = all.data?.find((c) => c.id === r.channelId);
      return {
        value: r.channelId,
        label: channel ? `${channel.name} (${channel.provider})` : r.channelId,
      };
    });
  const [chosen, setChannelId] = useState('');
  const channelId = chosen || (options[0]?.value ?? '');
  const [values, setValues] = useState({ subject: '', text: '', html: '', to: '', metadata: '' });
  const set = (name: keyof typeof values) => (value: string) =>
    setValues((v) => ({ ...v, [name]: value }));
  const send = useMutation({
    mutationFn: () =>
      api.communication.send({
        path: { appId },
        body: {
          channelId,
          text: values.text,
          ...(values.subject ? { subject: values.subject } : {}),
          ...(values.html ? { html: values.html } : {}),
          ...(values.to ? { to: values.to } : {}),
          metadata: parseObject('metadata', values.metadata),
        },
      }),
    onSuccess: async ({ delivery }) => {
      await queryClient.invalidateQueries({ queryKey: ['deliveries', appId] });
      await navigate(appPath(appId, `/deliveries/${delivery.id}`));
    },
  });
  return (
    <>
      <PageHeader title="Send a message">
        From app <Link to={appPath(appId)}>{appId}</Link>, on one of its enabled registrations. The
        message is accepted at once, then sent (or retried) in the background.
      </PageHeader>
      <ErrorBanner error={registrations.error ?? all.error} />
      {registrations.isPending ? (
        <Loading />
      ) : options.length === 0 ? (
        <Empty>
          This app has no enabled registration: <Link to={appPath(appId)}>register it</Link> on a
          channel first.
        </Empty>
      ) : (
        <Form
          label="Send a message"
          onSubmit={() => send.mutate()}
          error={send.error}
          pending={send.isPending}
          submitLabel="Send"
          onCancel={() => history.back()}
        >
          <SelectField
            label="Channel"
            name="channelId"
            value={channelId}
            options={options}
            onChange={setChannelId}
          />
          <TextField
            label="Subject"
            name="subject"
            hint="Required for smtp"
            value={values.subject}
            onChange={set('subject')}
          />
          <TextField
            label="Text"
            name="text"
            required
            multiline
            value={values.text}
            onChange={set('text')}
          />
          <TextField
            label="HTML"
            name="html"
            multiline
            value={values.html}
            onChange={set('html')}
          />
          <TextField
            label="To"
            name="to"
            hint="Overrides the registration’s target for this message"
            value={values.to}
            onChange={set('to')}
          />
          <TextField
            label="Metadata"
            name="metadata"
            multiline
            rows={2}
            hint="A JSON object"
            value={values.metadata}
            onChange={set('metadata')}
          />
        </Form>
      )}
    </>
  );
}
