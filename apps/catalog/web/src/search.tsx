import {
  api,
  Badge,
  DataTable,
  Empty,
  ErrorBanner,
  FilterBar,
  FilterInput,
  FilterSelect,
  keepPreviousData,
  Loading,
  PageHeader,
  useQuery,
  useSearchParams,
  type DataOf,
} from '@platform/ui';
import { RecordLink, tagsOf } from './refs';

type Hit = DataOf<'catalog.search'>[number];
type Kind = Hit['kind'];

const PATHS: Record<Kind, string> = {
  service: 'services',
  system: 'systems',
  owner: 'owners',
  api: 'apis',
};

/** Ranked search over services, systems, owners and APIs; the query stays in the URL. */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const kind = (params.get('kind') ?? '') as Kind | '';
  const set = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const hits = useQuery({
    queryKey: ['search', q.trim(), kind],
    queryFn: () =>
      api.catalog.search({ query: { q: q.trim(), limit: 50, ...(kind ? { kind } : {}) } }),
    enabled: q.trim() !== '',
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Search">
        Services, systems, owners and APIs by name, tag or description.
      </PageHeader>
      <FilterBar>
        <FilterInput label="Search the catalog" value={q} onChange={(v) => set('q', v)} />
        <FilterSelect
          label="Kind"
          value={kind}
          onChange={(v) => set('kind', v)}
          options={Object.keys(PATHS)}
        />
      </FilterBar>
      <ErrorBanner error={hits.error} />
      {q.trim() === '' ? (
        <Empty>Type a word to search for.</Empty>
      ) : hits.isPending ? (
        <Loading />
      ) : (
        <DataTable
          caption={`Best matches for “${q.trim()}”`}
          rows={hits.data ?? []}
          rowKey={(h) => `${h.kind}:${h.id}`}
          empty={`Nothing matches “${q.trim()}”.`}
          columns={[
            {
              header: 'Name',
              cell: (h) => <RecordLink to={PATHS[h.kind]} id={h.id} name={h.name} />,
            },
            { header: 'Kind', cell: (h) => <Badge>{h.kind}</Badge> },
            { header: 'Matched', cell: (h) => h.match },
            { header: 'Description', cell: (h) => h.description ?? '—' },
            { header: 'Tags', cell: (h) => tagsOf(h.tags) },
          ]}
        />
      )}
    </>
  );
}
