import {
  api,
  Card,
  DataTable,
  Details,
  ErrorBanner,
  FilterBar,
  FilterSelect,
  formatDate,
  Link,
  Loading,
  PageHeader,
  QueryList,
  useCan,
  useListParams,
  useParams,
  useQuery,
  type DataOf,
} from '@platform/ui';
import { shortSha, useBranches } from './branches';
import type { Repo } from './repos';

type Commit = DataOf<'git.getCommit'>;

const firstLine = (message: string) => message.split('\n')[0];

/** The commits of a branch (the default one unless chosen), newest first, paged. */
export function Commits({ repo }: { repo: Repo }) {
  const params = useListParams();
  const can = useCan();
  const branches = useBranches(repo);
  return (
    <Card
      title="Commits"
      actions={
        can('git', 'createCommit') && (
          <Link className="ui-button" to={`/repos/${repo.id}/commits/new`}>
            Commit a file
          </Link>
        )
      }
    >
      <FilterBar>
        <FilterSelect
          label="Branch"
          value={params.get('branch')}
          onChange={(v) => params.set('branch', v)}
          any="Default branch"
          options={(branches.data ?? []).map((b) => b.name)}
        />
      </FilterBar>
      {/* The page's URL holds the pull requests' filter too: only this list's own go along. */}
      <QueryList
        queryKey={['commits', repo.id]}
        list={({ branch, limit, offset }) =>
          api.git.listCommits({
            path: { id: repo.id },
            query: {
              limit: Number(limit),
              offset: Number(offset),
              ...(branch && { branch: String(branch) }),
            },
          })
        }
        rowKey={(c) => c.sha}
        href={(c) => `/repos/${repo.id}/commits/${c.sha}`}
        empty="No commits on this branch yet."
        columns={[
          { header: 'Commit', cell: (c) => <code>{shortSha(c.sha)}</code> },
          { header: 'Message', cell: (c) => firstLine(c.message) },
          { header: 'Author', cell: (c) => c.author.name || c.author.email },
          { header: 'When', cell: (c) => formatDate(c.author.date) },
        ]}
      />
    </Card>
  );
}

const person = (p: Commit['author']) => `${p.name} <${p.email}> · ${formatDate(p.date)}`;

/** One commit: message, author, parents and the files it changed. */
export function CommitPage() {
  const { id, sha } = useParams() as { id: string; sha: string };
  const commit = useQuery({
    queryKey: ['commit', id, sha],
    queryFn: () => api.git.getCommit({ path: { id, sha } }),
  });
  const back = <Link to={`/repos/${id}?tab=commits`}>All commits</Link>;
  if (commit.isPending) return <Loading />;
  if (commit.error)
    return (
      <>
        <PageHeader title={`Commit ${shortSha(sha)}`}>{back}</PageHeader>
        <ErrorBanner error={commit.error} />
      </>
    );
  const c = commit.data;
  return (
    <>
      <PageHeader title={firstLine(c.message)}>{back}</PageHeader>
      <Card>
        <Details
          items={[
            ['Commit', <code key="sha">{c.sha}</code>],
            ['Message', <span className="git-message">{c.message}</span>],
            ['Author', person(c.author)],
            ['Committer', person(c.committer)],
            [
              'Parents',
              c.parents.length === 0
                ? 'None (the first commit)'
                : c.parents.map((p) => (
                    <Link key={p} to={`/repos/${id}/commits/${p}`} className="git-sha">
                      <code>{shortSha(p)}</code>
                    </Link>
                  )),
            ],
            ['On the web', c.htmlUrl && <a href={c.htmlUrl}>{c.htmlUrl}</a>],
          ]}
        />
      </Card>
      <Card title="Files changed">
        <DataTable
          rows={c.files ?? []}
          rowKey={(f) => f.path}
          empty="No files changed."
          columns={[
            { header: 'Path', cell: (f) => <code>{f.path}</code> },
            { header: 'Change', cell: (f) => f.status },
            { header: 'Additions', cell: (f) => f.additions ?? '—', numeric: true },
            { header: 'Deletions', cell: (f) => f.deletions ?? '—', numeric: true },
          ]}
        />
      </Card>
    </>
  );
}
