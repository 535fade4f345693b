import {
  api,
  formatDate,
  Status,
  useQuery,
  type BodyOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

export type Channel = DataOf<'communication.getChannel'>;
export type Provider = Channel['provider'];

export const PROVIDERS: readonly Provider[] = ['smtp', 'slack', 'webhook', 'log', 'inbox'];

/** A config key of a provider, as the form shows it. `secret`: an env: reference or masked. */
export interface ConfigField {
  key: string;
  label: string;
  kind?: 'text' | 'number' | 'checkbox' | 'url' | 'secret';
  required?: boolean;
  hint?: string;
}

/** Each provider's config keys (the README's table). */
export const CONFIG_FIELDS: Record<Provider, readonly ConfigField[]> = {
  smtp: [
    { key: 'host', label: 'SMTP host', required: true },
    { key: 'port', label: 'Port', kind: 'number', hint: 'Empty: 465 with secure, else 587' },
    { key: 'secure', label: 'Implicit TLS (secure)', kind: 'checkbox' },
    { key: 'user', label: 'User', hint: 'The SMTP login; with it, TLS is always required' },
    { key: 'pass', label: 'Password', kind: 'secret' },
    { key: 'from', label: 'From', required: true, hint: 'address@host or "Name <address@host>"' },
  ],
  slack: [
    {
      key: 'webhookUrl',
      label: 'Slack webhook URL',
      kind: 'secret',
      required: true,
      hint: 'An incoming webhook; its URL carries a token, so it is a secret',
    },
  ],
  webhook: [
    { key: 'url', label: 'Webhook URL', kind: 'url', required: true },
    {
      key: 'secret',
      label: 'Signing secret',
      kind: 'secret',
      required: true,
      hint: '16 characters or more',
    },
  ],
  log: [],
  inbox: [],
};

const labelOf = (provider: Provider, key: string) =>
  CONFIG_FIELDS[provider].find((f) => f.key === key)?.label ?? key;

/** Every channel (up to 1000), for pickers and to name a channel id. */
export function useChannels() {
  return useQuery({
    queryKey: ['channels', 'list', 'all'],
    queryFn: () => api.communication.listChannels({ query: { limit: 1000 } }),
  });
}

/** Channels: list, detail, delete; create and edit are ChannelFormPage (config per provider). */
export const channels: ResourceSpec<Channel> = {
  path: 'channels',
  singular: 'channel',
  plural: 'channels',
  description: 'Where apps’ messages go: SMTP, Slack, signed webhooks, or the service log.',
  key: (c) => c.id,
  title: (c) => c.name,
  list: (query) => api.communication.listChannels({ query }),
  get: (id) => api.communication.getChannel({ path: { id } }),
  create: (body) =>
    api.communication.createChannel({ body: body as BodyOf<'communication.createChannel'> }),
  update: (id, body) =>
    api.communication.updateChannel({
      path: { id },
      body: body as BodyOf<'communication.updateChannel'>,
    }),
  remove: (id) => api.communication.deleteChannel({ path: { id } }),
  access: {
    service: 'communication',
    create: 'createChannel',
    update: 'updateChannel',
    remove: 'deleteChannel',
  },
  filters: [{ name: 'status', label: 'Status', options: ['active', 'disabled'] }],
  columns: [
    { header: 'Name', cell: (c) => c.name },
    { header: 'Provider', cell: (c) => c.provider },
    { header: 'Status', cell: (c) => <Status value={c.status} /> },
    { header: 'Description', cell: (c) => c.description ?? '—' },
    { header: 'Updated', cell: (c) => formatDate(c.updatedAt) },
  ],
  details: (c) => [
    ['Id', <code key="id">{c.id}</code>],
    ['Provider', c.provider],
    ['Status', <Status key="status" value={c.status} />],
    ['Description', c.description],
    ...Object.entries(c.config).map(([key, value]): [string, string] => [
      labelOf(c.provider, key),
      String(value),
    ]),
    ...(c.provider === 'log'
      ? [['Config', 'None: messages go to the service log'] as [string, string]]
      : []),
    ['Created', formatDate(c.createdAt)],
    ['Updated', formatDate(c.updatedAt)],
  ],
};
