import {
  api,
  Card,
  DataTable,
  Details,
  ErrorBanner,
  Form,
  formatDate,
  Link,
  Loading,
  PageHeader,
  SelectField,
  Status,
  TextField,
  useCan,
  useMutation,
  useParams,
  useQuery,
  useQueryClient,
} from '@platform/ui';
import { useState } from 'react';
import { shortSha } from './branches';
import { pullState, type Pull } from './pulls';
import { Reviews } from './reviews';

/** What the pull request brings: the commits and files of head since its merge base. */
function Changes({ id, pull }: { id: string; pull: Pull }) {
  const compare = useQuery({
    queryKey: ['compare', id, pull.base, pull.head],
    queryFn: () => api.git.compare({ path: { id, path: `${pull.base}...${pull.head}` } }),
    enabled: !pull.merged,
  });
  if (pull.merged) return null;
  return (
    <Card title="Changes">
      <ErrorBanner error={compare.error} />
      {compare.isPending ? (
        <Loading />
      ) : (
        compare.data && (
          <>
            <p className="ui-muted">
              {`${compare.data.aheadBy} ahead, ${compare.data.behindBy} behind ${pull.base}`}
            </p>
            <DataTable
              rows={compare.data.files}
              rowKey={(f) => f.path}
              empty="No file differs."
              columns={[
                { header: 'Path', cell: (f) => <code>{f.path}</code> },
                { header: 'Change', cell: (f) => f.status },
              ]}
            />
          </>
        )
      )}
    </Card>
  );
}

function Merge({ id, pull }: { id: string; pull: Pull }) {
  const queryClient = useQueryClient();
  const [method, setMethod] = useState<'merge' | 'squash'>('merge');
  const [message, setMessage] = useState('');
  const merge = useMutation({
    mutationFn: () =>
      api.git.mergePull({
        path: { id, number: pull.number },
        body: { method, ...(message && { message }) },
      }),
    onSuccess: () => queryClient.invalidateQueries(),
  });
  return (
    <Card title="Merge">
      <Form
        label="Merge"
        onSubmit={() => merge.mutate()}
        error={merge.error}
        pending={merge.isPending}
        submitLabel="Merge pull request"
      >
        <SelectField
          label="Method"
          name="method"
          value={method}
          onChange={(v) => setMethod(v as 'merge' | 'squash')}
          options={[
            { value: 'merge', label: 'A merge commit' },
            { value: 'squash', label: 'Squash into one commit' },
          ]}
        />
        <TextField label="Commit message" name="message" value={message} onChange={setMessage} />
      </Form>
    </Card>
  );
}

/** One pull request: its branches, text, changes, and the merge while it is open. */
export function PullPage() {
  const params = useParams() as { id: string; number: string };
  const { id } = params;
  const number = Number(params.number);
  const pull = useQuery({
    queryKey: ['pull', id, number],
    queryFn: () => api.git.getPull({ path: { id, number } }),
  });
  // Merging is the connection's owners': the repository says whose it is.
  const repo = useQuery({
    queryKey: ['repos', 'get', id],
    queryFn: () => api.git.getRepo({ path: { idOrName: id } }),
  });
  const can = useCan();
  const back = <Link to={`/repos/${id}?tab=pulls`}>All pull requests</Link>;
  if (pull.isPending) return <Loading />;
  if (pull.error)
    return (
      <>
        <PageHeader title={`Pull request #${params.number}`}>{back}</PageHeader>
        <ErrorBanner error={pull.error} />
      </>
    );
  const p = pull.data;
  return (
    <>
      <PageHeader title={`#${p.number} ${p.title}`} actions={<Status value={pullState(p)} />}>
        {back}
      </PageHeader>
      <Card>
        <Details
          items={[
            ['From', <code key="h">{p.head}</code>],
            ['Into', <code key="b">{p.base}</code>],
            ['Author', p.author],
            ['Description', p.body && <span className="git-message">{p.body}</span>],
            [
              'Merge commit',
              p.mergeCommitSha && (
                <Link to={`/repos/${id}/commits/${p.mergeCommitSha}`}>
                  <code>{shortSha(p.mergeCommitSha)}</code>
                </Link>
              ),
            ],
            ['Merged', p.mergedAt && formatDate(p.mergedAt)],
            ['On the web', p.htmlUrl && <a href={p.htmlUrl}>{p.htmlUrl}</a>],
            ['Opened', formatDate(p.created)],
            ['Updated', formatDate(p.updated)],
          ]}
        />
      </Card>
      <Changes id={id} pull={p} />
      {repo.data && !p.htmlUrl && <Reviews id={id} pull={p} />}
      {p.state === 'open' && !p.merged && repo.data && can('git', 'mergePull', repo.data) && (
        <Merge id={id} pull={p} />
      )}
    </>
  );
}
