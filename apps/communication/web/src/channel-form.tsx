import {
  Allowed,
  CheckboxField,
  ErrorBanner,
  errorMessage,
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
import { CONFIG_FIELDS, PROVIDERS, channels, type Channel, type Provider } from './channels';

type Values = Record<string, string | boolean>;

const SECRET_HINT =
  'An env:CHANNEL_… reference, read when sending. Written literally it is stored encrypted and shown as ********; leave ******** to keep it.';

/** The form's values of a stored config (secrets come masked or as references). */
function toValues(channel?: Channel): Values {
  const values: Values = {};
  for (const [key, value] of Object.entries(channel?.config ?? {}))
    values[key] = typeof value === 'boolean' ? value : String(value);
  return values;
}

/** The config the API takes: the provider's keys only, empty ones left out. */
function toConfig(provider: Provider, values: Values) {
  const config: Record<string, string | number | boolean> = {};
  for (const field of CONFIG_FIELDS[provider]) {
    const value = values[field.key];
    if (field.kind === 'checkbox') config[field.key] = Boolean(value);
    else if (value === undefined || value === '') continue;
    else config[field.key] = field.kind === 'number' ? Number(value) : String(value);
  }
  return config;
}

function ChannelForm({ channel }: { channel?: Channel }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(channel?.name ?? '');
  const [provider, setProvider] = useState<Provider>(channel?.provider ?? 'log');
  const [description, setDescription] = useState(channel?.description ?? '');
  const [status, setStatus] = useState<string>(channel?.status ?? 'active');
  const [config, setConfig] = useState(() => toValues(channel));
  const set = (key: string) => (value: string | boolean) =>
    setConfig((current) => ({ ...current, [key]: value }));
  const save = useMutation({
    mutationFn: () =>
      channel
        ? channels.update!(channel.id, {
            status,
            description: description || null,
            config: toConfig(provider, config),
          })
        : channels.create!({
            ...(name ? { name } : {}),
            provider,
            ...(description ? { description } : {}),
            config: toConfig(provider, config),
          }),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['channels'] });
      await navigate(`/channels/${saved.id}`);
    },
  });
  const fields = CONFIG_FIELDS[provider];
  // The kit places a message by its top-level name (`config`): the config field it is about
  // (`config.secret ...`) is the one named `config`, so the message shows beside it alone.
  const about = save.error
    ? /(?:^|\()config\.(\w+)/.exec(errorMessage(save.error))?.[1]
    : undefined;
  const nameOf = (key: string) => (key === about ? 'config' : `config.${key}`);
  return (
    <Form
      fields={['name', 'provider', 'description', 'status', 'config']}
      onSubmit={() => save.mutate()}
      error={save.error}
      pending={save.isPending}
      submitLabel={channel ? 'Save' : 'Create'}
      onCancel={() => history.back()}
    >
      {!channel && <TextField label="Name" name="name" required value={name} onChange={setName} />}
      <SelectField
        label="Provider"
        name="provider"
        value={provider}
        options={channel ? [provider] : PROVIDERS}
        hint={channel ? 'A channel’s provider cannot change' : undefined}
        onChange={(value) => setProvider(value as Provider)}
      />
      <TextField
        label="Description"
        name="description"
        multiline
        rows={2}
        value={description}
        onChange={setDescription}
      />
      {channel && (
        <SelectField
          label="Status"
          name="status"
          value={status}
          options={['active', 'disabled']}
          onChange={setStatus}
        />
      )}
      {fields.length === 0 && (
        <p className="ui-muted">
          The log provider needs no config: messages go to the service log.
        </p>
      )}
      {fields.map((field) => {
        const value = config[field.key];
        if (field.kind === 'checkbox')
          return (
            <CheckboxField
              key={field.key}
              label={field.label}
              name={nameOf(field.key)}
              checked={Boolean(value)}
              onChange={set(field.key)}
            />
          );
        const text = typeof value === 'string' ? value : '';
        return (
          <TextField
            key={field.key}
            label={field.label}
            name={nameOf(field.key)}
            required={field.required}
            hint={
              field.kind === 'secret'
                ? `${field.hint ? `${field.hint}. ` : ''}${SECRET_HINT}`
                : field.hint
            }
            // A secret never shows in plain text: only an env: reference is readable.
            type={
              field.kind === 'secret'
                ? text.startsWith('env:')
                  ? 'text'
                  : 'password'
                : field.kind === 'number' || field.kind === 'url'
                  ? field.kind
                  : 'text'
            }
            placeholder={field.kind === 'secret' ? 'env:CHANNEL_…' : undefined}
            value={text}
            onChange={set(field.key)}
          />
        );
      })}
    </Form>
  );
}

/** New channel, or edit one (`editing`): the provider's config fields, secrets as references. */
export function ChannelFormPage({ editing = false }: { editing?: boolean }) {
  return (
    <Allowed
      requires={['communication', editing ? 'updateChannel' : 'createChannel']}
      title={editing ? 'Edit channel' : 'New channel'}
      what={editing ? 'change channels' : 'create channels'}
    >
      <ChannelFormOf editing={editing} />
    </Allowed>
  );
}

function ChannelFormOf({ editing }: { editing: boolean }) {
  const key = useParams().key;
  const channel = useQuery({
    queryKey: ['channels', 'get', key],
    queryFn: () => channels.get(key!),
    enabled: editing,
  });
  if (editing && channel.isPending) return <Loading />;
  if (editing && channel.error)
    return (
      <>
        <PageHeader title={key} />
        <ErrorBanner error={channel.error} />
      </>
    );
  return (
    <>
      <PageHeader title={editing ? `Edit ${channel.data!.name}` : 'New channel'}>
        <Link to="/channels">All channels</Link>
      </PageHeader>
      <ChannelForm channel={editing ? channel.data : undefined} />
    </>
  );
}
