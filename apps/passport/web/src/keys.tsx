import {
  api,
  ConfirmButton,
  ErrorBanner,
  formatDate,
  Link,
  Status,
  useCan,
  useMutation,
  useQueryClient,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';

type Key = DataOf<'passport.getKey'>;

const state = (key: Key) =>
  key.revokedAt
    ? 'revoked'
    : key.expiresAt && Date.parse(key.expiresAt) <= Date.now()
      ? 'expired'
      : 'active';

/** Revokes a key at once, after asking; it stays listed, revoked. */
export function RevokeKey({ apiKey }: { apiKey: Key }) {
  const queryClient = useQueryClient();
  const can = useCan();
  const revoke = useMutation({
    mutationFn: () => api.passport.revokeKey({ path: { idOrName: apiKey.id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['keys'] }),
  });
  if (apiKey.revokedAt)
    return <span className="ui-muted">Revoked {formatDate(apiKey.revokedAt)}</span>;
  if (!can('passport', 'revokeKey', apiKey)) return null;
  return (
    <>
      <ConfirmButton
        label={`Revoke ${apiKey.name}`}
        confirmLabel="Revoke"
        question={`Revoke the key ${apiKey.name} (${apiKey.prefix}…)? Whatever uses it is refused at once.`}
        onConfirm={() => revoke.mutate()}
        pending={revoke.isPending}
      />
      <ErrorBanner error={revoke.error} />
    </>
  );
}

/** To the new key's form, for whom may make keys (anyone signed in; a key needs admin). */
function NewKeyLink() {
  if (!useCan()('passport', 'createKey')) return null;
  return (
    <Link className="ui-button ui-button-primary" to="/keys/new">
      New key
    </Link>
  );
}

const Scopes = ({ scopes }: { scopes: readonly string[] }) => <code>{scopes.join(' ')}</code>;

/** API keys: listed and revoked here; made on their own page, which shows the key once. */
export const keys: ResourceSpec<Key> = {
  path: 'keys',
  singular: 'key',
  plural: 'API keys',
  description: (
    <>
      Keys for CI and scripts, sent as <code>x-api-key</code>. The key itself is shown once, when it
      is made.
    </>
  ),
  actions: <NewKeyLink />,
  access: { service: 'passport', list: 'listKeys', get: 'getKey' },
  key: (k) => k.id,
  title: (k) => k.name,
  list: (query) => api.passport.listKeys({ query }),
  get: (idOrName) => api.passport.getKey({ path: { idOrName } }),
  columns: [
    { header: 'Name', cell: (k) => k.name },
    { header: 'Prefix', cell: (k) => <code>{k.prefix}…</code> },
    { header: 'State', cell: (k) => <Status value={state(k)} /> },
    { header: 'Scopes', cell: (k) => <Scopes scopes={k.scopes} /> },
    { header: 'Team', cell: (k) => k.team ?? '—' },
    { header: 'Created by', cell: (k) => k.createdBy ?? '—' },
    { header: 'Last used', cell: (k) => formatDate(k.lastUsedAt) },
    { header: 'Expires', cell: (k) => formatDate(k.expiresAt) },
    { header: 'Actions', cell: (k) => <RevokeKey apiKey={k} /> },
  ],
  details: (k) => [
    ['Id', <code key="id">{k.id}</code>],
    ['Prefix', <code key="prefix">{k.prefix}…</code>],
    ['State', <Status key="state" value={state(k)} />],
    ['Scopes', <Scopes key="scopes" scopes={k.scopes} />],
    ['Team', k.team],
    ['Created by', k.createdBy],
    ['Created', formatDate(k.createdAt)],
    ['Last used', formatDate(k.lastUsedAt)],
    ['Expires', formatDate(k.expiresAt)],
    ['Revoked', formatDate(k.revokedAt)],
    ['Bootstrap', k.bootstrap ? 'yes (PLATFORM_API_KEY)' : 'no'],
  ],
  more: (k) => (
    <div className="ui-actions">
      <RevokeKey apiKey={k} />
    </div>
  ),
};
