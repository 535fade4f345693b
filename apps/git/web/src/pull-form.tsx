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

/** A new pull request: head branch into base branch, title and description. */
export function NewPullPage() {
  return (
    <Allowed requires={['git', 'createPull']} title="New pull request" what="open pull requests">
      <NewPull />
    </Allowed>
  );
}

function NewPull() {
  const id = useParams().id!;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const branches = useBranches({ id });
  const names = (branches.data ?? []).map((b) => b.name);
  const defaultBranch = branches.data?.find((b) => b.default)?.name ?? '';
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [head, setHead] = useState<string | null>(null);
  const [base, setBase] = useState<string | null>(null);
  const chosenBase = base ?? defaultBranch;
  const chosenHead = head ?? names.find((n) => n !== chosenBase) ?? '';
  const create = useMutation({
    mutationFn: () =>
      api.git.createPull({
        path: { id },
        body: { title, head: chosenHead, base: chosenBase, ...(body && { body }) },
      }),
    onSuccess: async (pull) => {
      await queryClient.invalidateQueries({ queryKey: ['pulls', id] });
      await navigate(`/repos/${id}/pulls/${pull.number}`);
    },
  });
  return (
    <>
      <PageHeader title="New pull request" />
      <Form
        onSubmit={() => create.mutate()}
        error={create.error}
        pending={create.isPending}
        submitLabel="Open pull request"
        onCancel={() => history.back()}
      >
        <TextField label="Title" name="title" required value={title} onChange={setTitle} />
        <SelectField
          label="From branch"
          name="head"
          value={chosenHead}
          onChange={setHead}
          options={names}
        />
        <SelectField
          label="Into branch"
          name="base"
          value={chosenBase}
          onChange={setBase}
          options={names}
        />
        <TextField label="Description" name="body" multiline value={body} onChange={setBody} />
      </Form>
    </>
  );
}
