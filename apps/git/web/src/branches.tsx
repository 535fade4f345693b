import {
  api,
  Badge,
  Card,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Form,
  Link,
  Loading,
  SelectField,
  TextField,
  useCan,
  useMutation,
  useQuery,
  useQueryClient,
  type DataOf,
} from '@platform/ui';
import { useState } from 'react';
import type { Repo } from './repos';

type Branch = DataOf<'git.listBranches'>[number];

export const useBranches = (repo: { id: string }) =>
  useQuery({
    queryKey: ['branches', repo.id],
    queryFn: () => api.git.listBranches({ path: { id: repo.id } }),
  });

export const shortSha = (sha: string) => sha.slice(0, 7);

function NewBranch({ repo, names }: { repo: Repo; names: string[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.git.createBranch({
        path: { id: repo.id },
        body: { name, ...(from && { from }) },
      }),
    onSuccess: async () => {
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['branches', repo.id] });
    },
  });
  return (
    <Form
      label="New branch"
      onSubmit={() => create.mutate()}
      error={create.error}
      pending={create.isPending}
      submitLabel="Create branch"
    >
      <TextField label="Branch name" name="name" required value={name} onChange={setName} />
      <SelectField
        label="From"
        name="from"
        value={from}
        onChange={setFrom}
        options={[{ value: '', label: `The default branch (${repo.defaultBranch})` }, ...names]}
      />
    </Form>
  );
}

/** The repository's branches: each one's head, delete (not the default), and a new one. */
export function Branches({ repo }: { repo: Repo }) {
  const queryClient = useQueryClient();
  const branches = useBranches(repo);
  const can = useCan();
  const remove = useMutation({
    mutationFn: (name: string) => api.git.deleteBranch({ path: { id: repo.id, name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['branches', repo.id] }),
  });
  const rows = branches.data ?? [];
  return (
    <div className="ui-grid git-split">
      <Card title="Branches">
        <ErrorBanner error={branches.error ?? remove.error} />
        {branches.isPending ? (
          <Loading />
        ) : (
          <DataTable
            rows={rows}
            rowKey={(b) => b.name}
            empty="No branches yet: commit a file to start one."
            columns={[
              {
                header: 'Branch',
                cell: (b) => (
                  <Link to={`?tab=commits&branch=${encodeURIComponent(b.name)}`}>{b.name}</Link>
                ),
              },
              {
                header: 'Head',
                cell: (b) => (
                  <Link to={`/repos/${repo.id}/commits/${b.sha}`}>
                    <code>{shortSha(b.sha)}</code>
                  </Link>
                ),
              },
              {
                header: 'Flags',
                cell: (b) => (
                  <>
                    {b.default && <Badge tone="accent">default</Badge>}{' '}
                    {b.protected && <Badge tone="warning">protected</Badge>}
                  </>
                ),
              },
              ...(can('git', 'deleteBranch', repo)
                ? [
                    {
                      header: 'Actions',
                      cell: (b: Branch) =>
                        !b.default && (
                          <ConfirmButton
                            label={`Delete ${b.name}`}
                            question={`Delete branch ${b.name}? Its commits stay reachable from others only.`}
                            onConfirm={() => remove.mutate(b.name)}
                            pending={remove.isPending && remove.variables === b.name}
                          />
                        ),
                    },
                  ]
                : []),
            ]}
          />
        )}
        {can('git', 'createCommit') && (
          <p>
            <Link className="ui-button" to={`/repos/${repo.id}/commits/new`}>
              Commit a file
            </Link>
          </p>
        )}
      </Card>
      {can('git', 'createBranch') && (
        <Card title="New branch">
          <NewBranch repo={repo} names={rows.map((b) => b.name)} />
        </Card>
      )}
    </div>
  );
}
