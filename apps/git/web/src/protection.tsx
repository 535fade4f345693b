import {
  api,
  Card,
  CheckboxField,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Form,
  Loading,
  TextField,
  useCan,
  useMutation,
  useQuery,
  useQueryClient,
  type DataOf,
} from '@platform/ui';
import { useState } from 'react';
import type { Repo } from './repos';

type Rule = DataOf<'git.listProtections'>[number];

function NewRule({ repo }: { repo: Repo }) {
  const queryClient = useQueryClient();
  const [branch, setBranch] = useState(repo.defaultBranch);
  const [requirePullRequest, setRequirePullRequest] = useState(false);
  const [approvals, setApprovals] = useState('0');
  const save = useMutation({
    mutationFn: () =>
      api.git.protectBranch({
        path: { id: repo.id, branch },
        body: { requirePullRequest, requiredApprovals: Number(approvals) },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['protections', repo.id] }),
  });
  return (
    <Form
      label="Protect a branch"
      onSubmit={() => save.mutate()}
      error={save.error}
      pending={save.isPending}
      submitLabel="Protect branch"
      fields={['requirePullRequest', 'requiredApprovals']}
    >
      <TextField label="Branch" name="branch" required value={branch} onChange={setBranch} />
      <CheckboxField
        label="Require a pull request (refuse pushes and API commits)"
        name="requirePullRequest"
        checked={requirePullRequest}
        onChange={setRequirePullRequest}
      />
      <TextField
        label="Required approvals"
        name="requiredApprovals"
        type="number"
        value={approvals}
        onChange={setApprovals}
        hint="Approvals a pull request needs before it merges (0-20)"
      />
    </Form>
  );
}

/** A local repository's protected branches: never force-pushed or deleted, and their rules. */
export function Protection({ repo }: { repo: Repo }) {
  const queryClient = useQueryClient();
  const can = useCan();
  const rules = useQuery({
    queryKey: ['protections', repo.id],
    queryFn: () => api.git.listProtections({ path: { id: repo.id } }),
  });
  const remove = useMutation({
    mutationFn: (branch: string) => api.git.unprotectBranch({ path: { id: repo.id, branch } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['protections', repo.id] }),
  });
  const mayChange = can('git', 'protectBranch', repo);
  return (
    <div className="ui-grid git-split">
      <Card title="Protected branches">
        <p className="ui-muted">
          A protected branch refuses force pushes and deletion; `git push` prints why.
        </p>
        <ErrorBanner error={rules.error ?? remove.error} />
        {rules.isPending ? (
          <Loading />
        ) : (
          <DataTable
            rows={rules.data ?? []}
            rowKey={(r) => r.branch}
            empty="No protected branch."
            columns={[
              { header: 'Branch', cell: (r) => <code>{r.branch}</code> },
              { header: 'Pull request', cell: (r) => (r.requirePullRequest ? 'Required' : 'No') },
              { header: 'Approvals', cell: (r) => String(r.requiredApprovals) },
              ...(mayChange
                ? [
                    {
                      header: 'Actions',
                      cell: (r: Rule) => (
                        <ConfirmButton
                          label={`Unprotect ${r.branch}`}
                          question={`Remove the protection of ${r.branch}? Force pushes and deletion become possible.`}
                          onConfirm={() => remove.mutate(r.branch)}
                          pending={remove.isPending && remove.variables === r.branch}
                        />
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Card>
      {mayChange && (
        <Card title="Protect a branch">
          <NewRule repo={repo} />
        </Card>
      )}
    </div>
  );
}
