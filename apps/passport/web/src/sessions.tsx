import {
  api,
  ConfirmButton,
  ErrorBanner,
  FilterBar,
  FilterInput,
  FilterSelect,
  formatDate,
  PageHeader,
  QueryList,
  Status,
  useCan,
  useListParams,
  useMutation,
  useQueryClient,
  type DataOf,
} from '@platform/ui';

type Session = DataOf<'passport.listSessions'>[number];

function EndSession({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const may = useCan()('passport', 'deleteSession', { createdBy: session.email });
  const end = useMutation({
    mutationFn: () => api.passport.deleteSession({ path: { id: session.id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sessions'] }),
  });
  if (!session.active)
    return <span className="ui-muted">Ended {formatDate(session.revokedAt)}</span>;
  if (!may) return null;
  return (
    <>
      <ConfirmButton
        label={`End session of ${session.email}`}
        confirmLabel="End session"
        question={`End this session of ${session.email} now? They will have to sign in again.`}
        onConfirm={() => end.mutate()}
        pending={end.isPending}
      />
      <ErrorBanner error={end.error} />
    </>
  );
}

/** Sign-in sessions, newest first: admins see all, a person their own; each can be ended. */
export function SessionsPage() {
  const params = useListParams();
  return (
    <>
      <PageHeader title="Sessions">
        Sign-in sessions, newest first. Ending one signs that browser out at once.
      </PageHeader>
      {/* Its own bar (the state's options have words for true and false); QueryList reads the URL. */}
      <FilterBar>
        <FilterInput
          label="Email"
          value={params.get('email')}
          onChange={(v) => params.set('email', v)}
        />
        <FilterSelect
          label="State"
          value={params.get('active')}
          onChange={(v) => params.set('active', v)}
          options={[
            { value: 'true', label: 'Active' },
            { value: 'false', label: 'Ended' },
          ]}
        />
      </FilterBar>
      <QueryList
        queryKey={['sessions']}
        list={({ active, ...query }) =>
          api.passport.listSessions({
            query: active === undefined ? query : { ...query, active: active === 'true' },
          })
        }
        rowKey={(s) => s.id}
        empty="No sessions match: nobody signed in (authentication may be off)."
        columns={[
          { header: 'Email', cell: (s) => s.email },
          { header: 'Name', cell: (s) => s.name },
          { header: 'State', cell: (s) => <Status value={s.active ? 'active' : 'ended'} /> },
          { header: 'Signed in', cell: (s) => formatDate(s.createdAt) },
          { header: 'Last seen', cell: (s) => formatDate(s.lastSeenAt) },
          { header: 'Expires', cell: (s) => formatDate(s.expiresAt) },
          { header: 'Actions', cell: (s) => <EndSession session={s} /> },
        ]}
      />
    </>
  );
}
