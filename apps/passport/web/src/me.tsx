import {
  Badge,
  Card,
  Details,
  ErrorBanner,
  Loading,
  PageHeader,
  PlatformError,
  useMe,
  useSignOut,
  type Me,
} from '@platform/ui';
import type { ReactNode } from 'react';

const list = (items: readonly string[], none: string) =>
  items.length ? items.join(', ') : <span className="ui-muted">{none}</span>;

const ROLES: Record<string, string> = {
  admin: 'Administers the platform: its configuration, people and their roles, and everything else',
  member: 'Reads everything shared, creates, and changes what they or their teams made',
  viewer: 'Reads everything shared; changes nothing',
};

/** What the caller may do: their role (and a key's scopes), their groups and teams. */
function accessOf(who: Me): [string, ReactNode][] {
  if (who.kind !== 'user' && who.kind !== 'key') return [];
  return [
    [
      'Role',
      <Badge key="role" tone={who.role === 'admin' ? 'accent' : 'neutral'}>
        {who.role}
      </Badge>,
    ],
    ['What the role may', ROLES[who.role]],
    ...(who.kind === 'user'
      ? ([['Groups', list(who.groups, 'None (from the identity provider)')]] as [
          string,
          ReactNode,
        ][])
      : ([
          ['Scopes', list(who.scopes, 'None')],
          ['Owner', who.owner],
          ['Team key of', who.team],
        ] as [string, ReactNode][])),
    ['Teams', list(who.teams, 'None: a catalog owner lists your email, or your groups name it')],
  ];
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
      {(who.kind === 'user' || who.kind === 'key') && (
        <Card title="Access">
          <Details items={accessOf(who)} />
        </Card>
      )}
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
