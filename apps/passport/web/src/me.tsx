import {
  api,
  Card,
  Details,
  ErrorBanner,
  Loading,
  PageHeader,
  PlatformError,
  useQuery,
  useSignOut,
  type DataOf,
} from '@platform/ui';

export type Me = DataOf<'passport.me'>;

/** Who the caller is (`GET /me`), shared by the pages that depend on it. */
export function useMe() {
  return useQuery({ queryKey: ['passport.me'], queryFn: () => api.passport.me(), retry: false });
}

/** The caller: a signed-in person, a key, a service, or anonymous when authentication is off. */
export function MePage() {
  const me = useMe();
  const signOut = useSignOut();
  if (me.isPending) return <Loading />;
  if (me.error instanceof PlatformError && me.error.status === 401) {
    const returnTo = encodeURIComponent('/passport/');
    return (
      <>
        <PageHeader title="Not signed in" />
        <p>
          <a
            className="ui-button ui-button-primary"
            href={`/api/v1/passport/login?returnTo=${returnTo}`}
          >
            Sign in
          </a>
        </p>
      </>
    );
  }
  if (me.error) return <ErrorBanner error={me.error} />;
  const who = me.data;
  return (
    <>
      <PageHeader
        title={
          who.kind === 'user'
            ? who.name || who.email
            : who.kind === 'anonymous'
              ? 'Anonymous'
              : who.name
        }
        actions={
          who.kind === 'user' && (
            <button
              type="button"
              className="ui-button"
              disabled={signOut.isPending}
              onClick={() => signOut.mutate()}
            >
              Sign out
            </button>
          )
        }
      >
        {who.kind === 'anonymous'
          ? 'Authentication is off: everyone is anonymous, and an administrator.'
          : `Signed in as a ${who.kind}.`}
      </PageHeader>
      <ErrorBanner error={signOut.error} />
      <Card title="Identity">
        <Details
          items={
            who.kind === 'user'
              ? [
                  ['Kind', 'user'],
                  ['Email', who.email],
                  ['Name', who.name],
                  ['Session', <code key="s">{who.sessionId}</code>],
                ]
              : who.kind === 'key'
                ? [
                    ['Kind', 'API key'],
                    ['Name', who.name],
                    ['Key', <code key="k">{who.keyId}</code>],
                  ]
                : who.kind === 'service'
                  ? [
                      ['Kind', 'service'],
                      ['Name', who.name],
                    ]
                  : [['Kind', 'anonymous']]
          }
        />
      </Card>
    </>
  );
}
