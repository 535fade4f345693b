import {
  Empty,
  ErrorBanner,
  FilterBar,
  FilterSelect,
  Link,
  Loading,
  PageHeader,
  api,
  useCan,
  useQuery,
  useSearchParams,
} from '@platform/ui';
import { CATEGORIES, TokenPair, useAllTokens, type Category, type Token } from './token-view';

/** Tokens of one category by group (dotted path), ungrouped ones first. */
function byGroup(tokens: readonly Token[]) {
  const groups = new Map<string, Token[]>();
  for (const t of tokens) groups.set(t.group ?? '', [...(groups.get(t.group ?? '') ?? []), t]);
  return [...groups].sort(([a], [b]) => a.localeCompare(b));
}

/**
 * Every token rendered as what it is, light and dark side by side, by category and group: the
 * design system one can see.
 */
export function Gallery() {
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? '';
  const mode = params.get('mode') ?? '';
  const modes = useQuery({
    queryKey: ['tokens', 'modes'],
    queryFn: () => api.palette.listModes({ query: { limit: 1000 } }),
  });
  const tokens = useAllTokens();
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const mayCreate = useCan()('palette', 'createToken');
  const all = tokens.data ?? [];
  const byId = new Map(all.map((t) => [t.id, t]));
  const shown = CATEGORIES.filter((c) => !category || c === category)
    .map((c) => [c, all.filter((t) => t.category === c)] as [Category, Token[]])
    .filter(([, list]) => list.length > 0);
  return (
    <>
      <PageHeader
        title="Token gallery"
        actions={
          mayCreate && (
            <Link className="ui-button ui-button-primary" to="/tokens/new">
              New token
            </Link>
          )
        }
      >
        Every token as it renders, its light value beside its dark one.
      </PageHeader>
      <FilterBar>
        <FilterSelect
          label="Category"
          value={category}
          options={CATEGORIES}
          onChange={(v) => set('category', v)}
        />
        {(modes.data ?? []).length > 0 && (
          <FilterSelect
            label="Mode"
            value={mode}
            options={(modes.data ?? []).map((m) => m.name)}
            any="Light and dark"
            onChange={(v) => set('mode', v)}
          />
        )}
      </FilterBar>
      <ErrorBanner error={tokens.error} />
      {tokens.isPending ? (
        <Loading />
      ) : shown.length === 0 ? (
        <Empty>
          No tokens yet.
          {mayCreate && (
            <>
              {' '}
              <Link to="/tokens/new">Create one</Link>.
            </>
          )}
        </Empty>
      ) : (
        shown.map(([name, list]) => (
          <section key={name} className="pl-category" aria-labelledby={`category-${name}`}>
            <h2 id={`category-${name}`}>{name}</h2>
            {byGroup(list).map(([group, members]) => (
              <div key={group} className="pl-group">
                {group && <h3>{group}</h3>}
                <ul className="pl-tokens">
                  {members.map((t) => (
                    <li key={t.id} className="pl-token">
                      <div className="pl-token-name">
                        <Link to={`/tokens/${t.id}`}>{t.name}</Link>
                        {t.aliases.default && (
                          <span className="ui-muted">alias of {t.aliases.default.name}</span>
                        )}
                        <code className="ui-muted">{t.cssVariable}</code>
                      </div>
                      <TokenPair token={t} byId={byId} />
                      {mode && (
                        <div className="pl-mode-value">
                          <span className="ui-muted">{mode}</span>{' '}
                          <code>{t.modes[mode] ?? t.value.default}</code>
                          {t.modes[mode] === undefined && (
                            <span className="ui-muted"> (as the default)</span>
                          )}
                        </div>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
        ))
      )}
    </>
  );
}
