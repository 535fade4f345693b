import { api, Card, formatDate, Link, type DataOf, type ResourceSpec } from '@platform/ui';
import { Links } from './links';
import { CATEGORIES, TokenPair, useAllTokens, type Token } from './token-view';

type Detail = DataOf<'palette.getToken'>;

/** A token as its form edits it: `value` and `dark` as text, the API's names for them. */
export type TokenRow = Omit<Detail, 'value' | 'usage'> & {
  value: string;
  dark: string | null;
  values: Token['value'];
  usage?: Detail['usage'];
};

const flat = (t: Token | Detail): TokenRow => ({
  ...t,
  value: t.value.default,
  dark: t.value.dark,
  values: t.value,
});

const asToken = (row: TokenRow): Token => ({ ...row, value: row.values });

/** The token's preview in both modes, what uses it, and a way to check its contrast. */
function TokenMore({ row }: { row: TokenRow }) {
  const all = useAllTokens();
  const byId = new Map((all.data ?? []).map((t) => [t.id, t]));
  const usage = row.usage;
  return (
    <div className="ui-grid">
      <Card
        title="Preview"
        actions={
          row.category === 'color' && (
            <Link className="ui-button" to={`/contrast?foreground=${encodeURIComponent(row.name)}`}>
              Check contrast
            </Link>
          )
        }
      >
        <TokenPair token={asToken(row)} byId={byId} />
      </Card>
      {usage && (
        <Card title="Used by">
          <Links label="Components" path="components" items={usage.components} />
          <Links label="Patterns" path="patterns" items={usage.patterns} />
          <Links label="Tokens (aliases of it)" path="tokens" items={usage.tokens} />
        </Card>
      )}
    </div>
  );
}

/** The tokens' pages: list by category, group or tag, detail with preview and usage, forms. */
export const tokens: ResourceSpec<TokenRow> = {
  path: 'tokens',
  singular: 'token',
  plural: 'tokens',
  description: 'Colours, sizes, shadows, type and motion: the values every UI is styled with.',
  key: (t) => t.id,
  title: (t) => t.name,
  list: async (query) =>
    (await api.palette.listTokens({ query: query as { category?: Token['category'] } })).map(flat),
  get: async (idOrName) => flat(await api.palette.getToken({ path: { idOrName } })),
  create: async (body) =>
    flat(await api.palette.createToken({ body: body as { name: string } & Token })),
  update: async (idOrName, body) => {
    // Sent unchanged, a derived variable or key would count as set by hand and not follow a
    // rename; cleared, it keeps its value (the API has no way back to the derived one).
    const current = await api.palette.getToken({ path: { idOrName } });
    for (const key of ['cssVariable', 'tailwindKey'] as const)
      if (body[key] === null || body[key] === current[key]) delete body[key];
    return flat(await api.palette.updateToken({ path: { idOrName }, body }));
  },
  remove: (idOrName) => api.palette.deleteToken({ path: { idOrName } }),
  access: {
    service: 'palette',
    create: 'createToken',
    update: 'updateToken',
    remove: 'deleteToken',
  },
  filters: [
    { name: 'category', label: 'Category', options: CATEGORIES },
    { name: 'group', label: 'Group', type: 'text' },
    { name: 'tag', label: 'Tag', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (t) => t.name },
    { header: 'Category', cell: (t) => t.category },
    { header: 'Value', cell: (t) => <code>{t.value}</code> },
    { header: 'Dark', cell: (t) => (t.dark ? <code>{t.dark}</code> : '—') },
    { header: 'Group', cell: (t) => t.group ?? '—' },
    { header: 'CSS variable', cell: (t) => <code>{t.cssVariable}</code> },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true, hint: 'Letters, digits, - and _' },
    { name: 'category', label: 'Category', kind: 'select', options: CATEGORIES },
    {
      name: 'value',
      label: 'Value',
      required: true,
      hint: 'A value of the category (#1f4fc9, 16px, 120ms ...) or an alias: {group.name}',
    },
    { name: 'dark', label: 'Dark value', hint: 'Empty: the same as the value' },
    { name: 'group', label: 'Group', hint: 'A dotted path, e.g. brand.primary' },
    { name: 'cssVariable', label: 'CSS variable', hint: 'Derived from the name when empty' },
    { name: 'tailwindKey', label: 'Tailwind key', hint: 'Derived from the name when empty' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'tags', label: 'Tags', kind: 'list' },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (t) => [
    ['Id', <code key="id">{t.id}</code>],
    ['Category', t.category],
    ['Value', <code key="value">{t.value}</code>],
    ['Dark value', t.dark && <code key="dark">{t.dark}</code>],
    ['Alias of', t.aliases.default && <TokenLink key="alias" {...t.aliases.default} />],
    ['Dark alias of', t.aliases.dark && <TokenLink key="dark-alias" {...t.aliases.dark} />],
    ['CSS variable', <code key="css">{t.cssVariable}</code>],
    ['Tailwind key', <code key="tw">{t.tailwindKey}</code>],
    ['Group', t.group],
    ['Description', t.description],
    ['Tags', t.tags.length > 0 ? t.tags.join(', ') : null],
    ['Created', formatDate(t.created)],
    ['Updated', formatDate(t.updated)],
  ],
  more: (t) => <TokenMore row={t} />,
};

function TokenLink({ id, name }: { id: string; name: string }) {
  return <Link to={`/tokens/${id}`}>{name}</Link>;
}
