import {
  Allowed,
  api,
  ConfirmButton,
  ErrorBanner,
  formatDate,
  PageHeader,
  QueryList,
  Status,
  useMutation,
  useQueryClient,
  type DataOf,
} from '@platform/ui';
import { useState } from 'react';

type Person = DataOf<'passport.listUsers'>[number];
type Role = Person['role'];

const ROLES: readonly Role[] = ['viewer', 'member', 'admin'];

const SOURCES: Record<Person['source'], string> = {
  config: 'AUTH_ADMINS or AUTH_ADMIN_GROUPS',
  set: 'set by an admin',
  default: 'the default (AUTH_DEFAULT_ROLE)',
};

/** A person's role, to choose and change after a confirm; fixed when the configuration makes it. */
function RoleChange({ person }: { person: Person }) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>(person.role);
  const change = useMutation({
    mutationFn: () => api.passport.setUserRole({ path: { email: person.email }, body: { role } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['people'] }),
  });
  if (person.source === 'config')
    return <span className="ui-muted">Fixed by the configuration</span>;
  return (
    <div className="ui-actions">
      <select
        aria-label={`Role of ${person.email}`}
        value={role}
        onChange={(e) => setRole(e.target.value as Role)}
      >
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {role !== person.role && (
        <ConfirmButton
          label={`Change the role of ${person.email}`}
          confirmLabel="Change role"
          danger={role === 'admin'}
          question={`Make ${person.email} ${role === 'admin' ? 'an' : 'a'} ${role} (now ${person.role})? It is audited, and in force from their next request, their keys included.`}
          onConfirm={() => change.mutate()}
          pending={change.isPending}
        />
      )}
      <ErrorBanner error={change.error} />
    </div>
  );
}

/** People who signed in or were given a role, and their roles: admins change them. */
export function PeoplePage() {
  return (
    <>
      <PageHeader title="People">
        Everyone who signed in or was given a role. Viewers read; members also create and change
        what they or their teams made; admins administer the platform.
      </PageHeader>
      <Allowed requires={['passport', 'listUsers']} what="see people and their roles">
        <QueryList
          queryKey={['people']}
          list={(query) => api.passport.listUsers({ query })}
          filters={[{ name: 'role', label: 'Role', options: ROLES }]}
          rowKey={(p) => p.email}
          empty="Nobody matches."
          columns={[
            { header: 'Email', cell: (p) => p.email },
            { header: 'Role', cell: (p) => <Status value={p.role} /> },
            { header: 'From', cell: (p) => SOURCES[p.source] },
            { header: 'Last signed in', cell: (p) => formatDate(p.lastSignInAt) },
            {
              header: 'Changed',
              cell: (p) => (p.updatedBy ? `${formatDate(p.updatedAt)} by ${p.updatedBy}` : '—'),
            },
            { header: 'Change', cell: (p) => <RoleChange person={p} /> },
          ]}
        />
      </Allowed>
    </>
  );
}
