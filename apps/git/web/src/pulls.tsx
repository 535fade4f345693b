import {
  api,
  Card,
  DataTable,
  ErrorBanner,
  FilterBar,
  formatDate,
  keepPreviousData,
  Link,
  Loading,
  Pager,
  Status,
  useListParams,
  useQuery,
  type DataOf,
} from '@platform/ui';
import type { Repo } from './repos';

export type Pull = DataOf<'git.getPull'>;

/** A pull request's state in one word: merged, open or closed. */
export const pullState = (p: Pull) => (p.merged ? 'merged' : p.state);

/** The repository's pull requests (open unless asked), newest first, paged. */
export function Pulls({ repo }: { repo: Repo }) {
  const params = useListParams({ limit: 20 });
  const state = (params.get('state') || 'open') as 'open' | 'closed' | 'all';
  const query = { state, limit: params.limit, offset: params.offset };
  const pulls = useQuery({
    queryKey: ['pulls', repo.id, query],
    queryFn: () => api.git.listPulls({ path: { id: repo.id }, query }),
    placeholderData: keepPreviousData,
  });
  return (
    <Card
      title="Pull requests"
      actions={
        <Link className="ui-button ui-button-primary" to={`/repos/${repo.id}/pulls/new`}>
          New pull request
        </Link>
      }
    >
      <FilterBar>
        <label className="ui-filter">
          <span>State</span>
          <select value={state} onChange={(e) => params.set('state', e.target.value)}>
            {['open', 'closed', 'all'].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </FilterBar>
      <ErrorBanner error={pulls.error} />
      {pulls.isPending ? (
        <Loading />
      ) : (
        <>
          <DataTable
            rows={pulls.data ?? []}
            rowKey={(p) => String(p.number)}
            href={(p) => `/repos/${repo.id}/pulls/${p.number}`}
            empty={`No ${state === 'all' ? '' : `${state} `}pull requests.`}
            columns={[
              { header: 'Pull request', cell: (p) => `#${p.number} ${p.title}` },
              { header: 'State', cell: (p) => <Status value={pullState(p)} /> },
              { header: 'Branches', cell: (p) => `${p.head} → ${p.base}` },
              { header: 'Author', cell: (p) => p.author },
              { header: 'Updated', cell: (p) => formatDate(p.updated) },
            ]}
          />
          <Pager
            limit={params.limit}
            offset={params.offset}
            count={pulls.data?.length ?? 0}
            onOffset={(o) => params.set('offset', String(o))}
          />
        </>
      )}
    </Card>
  );
}
