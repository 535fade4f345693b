import {
  api,
  Badge,
  DataTable,
  ErrorBanner,
  FilterBar,
  FilterInput,
  FilterSelect,
  Loading,
  PageHeader,
  keepPreviousData,
  useQuery,
  useSearchParams,
  type DataOf,
} from '@platform/ui';

type Kind = DataOf<'palette.search'>['results'][number]['kind'];

const KINDS: readonly Kind[] = ['token', 'component', 'pattern', 'standard', 'rule'];
const PATHS: Record<Kind, string> = {
  token: 'tokens',
  component: 'components',
  pattern: 'patterns',
  standard: 'standards',
  rule: 'rules',
};

/** One search across tokens, components, patterns, standards and rules, best match first. */
export function Search() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const kind = (params.get('kind') ?? '') as Kind | '';
  const set = (name: string) => (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const results = useQuery({
    queryKey: ['search', q, kind],
    queryFn: () => api.palette.search({ query: { q, ...(kind ? { kind } : {}) } }),
    enabled: q.trim() !== '',
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Search">
        Names first, then tags and descriptions, across every kind of record.
      </PageHeader>
      <FilterBar>
        <FilterInput label="Search for" value={q} onChange={set('q')} />
        <FilterSelect label="Kind" value={kind} options={KINDS} onChange={set('kind')} />
      </FilterBar>
      <ErrorBanner error={results.error} />
      {q.trim() === '' ? (
        <p className="ui-muted">Type a word to search for.</p>
      ) : results.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={`${results.data?.count ?? 0} results for “${results.data?.query ?? q}”`}
          rows={results.data?.results ?? []}
          rowKey={(r) => `${r.kind}-${r.id}`}
          href={(r) => `/${PATHS[r.kind]}/${r.id}`}
          empty={`Nothing matches “${q}”.`}
          columns={[
            { header: 'Name', cell: (r) => r.name },
            { header: 'Kind', cell: (r) => <Badge>{r.kind}</Badge> },
            { header: 'Description', cell: (r) => r.description ?? '—' },
            { header: 'Score', cell: (r) => r.score, numeric: true },
          ]}
        />
      )}
    </>
  );
}
