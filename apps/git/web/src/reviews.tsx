import {
  api,
  Badge,
  Card,
  DataTable,
  ErrorBanner,
  Form,
  formatDate,
  Loading,
  SelectField,
  TextField,
  useCan,
  useMutation,
  useQuery,
  useQueryClient,
} from '@platform/ui';
import { useState } from 'react';
import { shortSha } from './branches';
import type { Pull } from './pulls';

type ReviewEvent = 'APPROVE' | 'REQUEST_CHANGES' | 'COMMENT';
const TONES = { approved: 'success', changes_requested: 'danger', commented: 'neutral' } as const;

function NewReview({ id, pull }: { id: string; pull: Pull }) {
  const queryClient = useQueryClient();
  const [event, setEvent] = useState<ReviewEvent>('APPROVE');
  const [body, setBody] = useState('');
  const review = useMutation({
    mutationFn: () =>
      api.git.createReview({
        path: { id, number: pull.number },
        body: { event, ...(body && { body }) },
      }),
    onSuccess: async () => {
      setBody('');
      await queryClient.invalidateQueries({ queryKey: ['reviews', id, pull.number] });
    },
  });
  return (
    <Form
      label="Review"
      onSubmit={() => review.mutate()}
      error={review.error}
      pending={review.isPending}
      submitLabel="Submit review"
    >
      <SelectField
        label="Verdict"
        name="event"
        value={event}
        onChange={(v) => setEvent(v as ReviewEvent)}
        options={[
          { value: 'APPROVE', label: 'Approve' },
          { value: 'REQUEST_CHANGES', label: 'Request changes' },
          { value: 'COMMENT', label: 'Comment' },
        ]}
      />
      <TextField label="Comment" name="body" multiline value={body} onChange={setBody} />
    </Form>
  );
}

/** A local pull request's reviews, what its base branch's rules still need, and a new review. */
export function Reviews({ id, pull }: { id: string; pull: Pull }) {
  const can = useCan();
  const reviews = useQuery({
    queryKey: ['reviews', id, pull.number],
    queryFn: () => api.git.listReviews({ path: { id, number: pull.number } }),
  });
  const data = reviews.data;
  return (
    <Card title="Reviews">
      <ErrorBanner error={reviews.error} />
      {reviews.isPending ? (
        <Loading />
      ) : (
        data && (
          <>
            {!pull.merged && (
              <p role="status">
                {data.mergeable
                  ? `The rules of ${pull.base} hold.`
                  : `Not mergeable yet: it needs ${data.missing.join(' and ')}.`}
              </p>
            )}
            <DataTable
              rows={data.reviews}
              rowKey={(r) => r.id}
              empty="No review yet."
              columns={[
                { header: 'Reviewer', cell: (r) => r.user },
                {
                  header: 'Verdict',
                  cell: (r) => <Badge tone={TONES[r.state as keyof typeof TONES]}>{r.state}</Badge>,
                },
                { header: 'Comment', cell: (r) => r.body },
                { header: 'Commit', cell: (r) => <code>{shortSha(r.commitId)}</code> },
                { header: 'When', cell: (r) => formatDate(r.submittedAt) },
              ]}
            />
          </>
        )
      )}
      {pull.state === 'open' && can('git', 'createReview') && <NewReview id={id} pull={pull} />}
    </Card>
  );
}
