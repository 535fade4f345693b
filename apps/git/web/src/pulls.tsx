import {
  api,
  Card,
  FilterBar,
  FilterSelect,
  formatDate,
  Link,
  QueryList,
  Status,
  useCan,
  useListParams,
  type DataOf,
} from '@platform/ui';
import type { Repo } from './repos';

export type Pull = DataOf<'git.getPull'>;

/** A pull request's state in one word: merged, open or closed. */
export const pullState = (p: Pull) => (p.merged ? 'merged' : p.state);

const STATES = ['open', 'closed', 'all'] as const;

/** The repository's pull requests (open unless asked), newest first, paged. */
export function Pulls({ repo }: { repo: Repo }) {
  const params = useListParams();
  const state = params.get('state') || 'open';
  const can = useCan();
  return (
    <Card
      title="Pull requests"
      actions={
        can('git', 'createPull') && (
          <Link className="ui-button ui-button-primary" to={`/repos/${repo.id}/pulls/new`}>
            New pull request
          </Link>
        )
      }
    >
      <FilterBar>
        <FilterSelect
          label="State"
          value={state}
          onChange={(v) => params.set('state', v)}
          any={null}
          options={STATES}
        />
      </FilterBar>
      {/* The page's URL holds the commits' filter too: only this list's own go along. */}
      <QueryList
        queryKey={['pulls', repo.id]}
        list={({ limit, offset }) =>
          api.git.listPulls({
            path: { id: repo.id },
            query: {
              state: state as (typeof STATES)[number],
              limit: Number(limit),
              offset: Number(offset),
            },
          })
        }
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
    </Card>
  );
}
