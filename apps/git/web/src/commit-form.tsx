import {
  Allowed,
  api,
  Form,
  PageHeader,
  SelectField,
  TextField,
  useMutation,
  useNavigate,
  useParams,
  useQueryClient,
} from '@platform/ui';
import { useState } from 'react';
import { useBranches } from './branches';

/** One file written (created or replaced) in one commit on a branch. */
export function NewCommitPage() {
  return (
    <Allowed requires={['git', 'createCommit']} title="Commit a file" what="commit">
      <NewCommit />
    </Allowed>
  );
}

function NewCommit() {
  const id = useParams().id!;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const branches = useBranches({ id });
  const names = (branches.data ?? []).map((b) => b.name);
  const [branch, setBranch] = useState<string | null>(null);
  const [path, setPath] = useState('');
  const [content, setContent] = useState('');
  const [message, setMessage] = useState('');
  const target = branch ?? branches.data?.find((b) => b.default)?.name ?? 'main';
  const commit = useMutation({
    mutationFn: () =>
      api.git.createCommit({
        path: { id },
        body: { branch: target, message, files: [{ path, content }] },
      }),
    onSuccess: async (c) => {
      await queryClient.invalidateQueries();
      await navigate(`/repos/${id}/commits/${c.sha}`);
    },
  });
  return (
    <>
      <PageHeader title="Commit a file">
        Writes one file on a branch as a new commit (an empty repository gets its first one).
      </PageHeader>
      <Form
        onSubmit={() => commit.mutate()}
        error={commit.error}
        pending={commit.isPending}
        submitLabel="Commit"
        onCancel={() => history.back()}
      >
        {names.length > 0 ? (
          <SelectField
            label="Branch"
            name="branch"
            value={target}
            onChange={setBranch}
            options={names}
          />
        ) : (
          <TextField label="Branch" name="branch" value={target} onChange={setBranch} required />
        )}
        <TextField
          label="Path"
          name="path"
          required
          value={path}
          onChange={setPath}
          placeholder="docs/README.md"
        />
        <TextField
          label="Content"
          name="content"
          multiline
          rows={8}
          value={content}
          onChange={setContent}
        />
        <TextField
          label="Commit message"
          name="message"
          required
          value={message}
          onChange={setMessage}
        />
      </Form>
    </>
  );
}
