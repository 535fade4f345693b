import { ACCESS } from '@platform/client/browser';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, PlatformError, type DataOf } from './api';

// What the person may do, to hide what would only answer 403. The server decides (libs/core's
// `decide`, from each route's declaration); this mirrors its rules from the generated ACCESS table
// and GET /passport/me, so that no button, link or form is shown that can only be refused.

/** The caller: a signed-in person, a key, a platform service, or anonymous (authentication off). */
export type Me = DataOf<'passport.me'>;

type Table = typeof ACCESS;
export type AccessService = keyof Table;
export type AccessOperation<S extends AccessService> = keyof Table[S] & string;
/** A service and one of its operations: `['gateway', 'setFeature']`. */
export type OperationRef = {
  [S in AccessService]: readonly [S, AccessOperation<S>];
}[AccessService];
interface Entry {
  action: string;
  rule: string;
  scope: string | null;
}

/** Who owns a record, as the API shows it (`createdBy`, `team`; a session's collaborators). */
export interface Owned {
  createdBy?: string | null;
  team?: string | null;
  collaborators?: readonly string[] | null;
}

/** The caller (`GET /passport/me`), read once and shared by every component that asks. */
export function useMe() {
  return useQuery({
    queryKey: ['passport.me'],
    queryFn: () => api.passport.me(),
    retry: false,
    staleTime: 60_000,
  });
}

const same = (a?: string | null, b?: string | null) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** Whether a key's scopes grant `needed` (`<service>:<verb>` or `admin`), as the server's `grants`. */
function grants(scopes: readonly string[], needed: string) {
  if (scopes.includes('admin')) return true;
  if (needed === 'admin') return false;
  if (scopes.includes('*')) return true;
  const [service, verb] = needed.split(':');
  const verbs = verb === 'read' ? ['read', 'write', '*'] : [verb, 'write', '*'];
  return scopes.some((scope) => {
    const [s, v] = scope.split(':');
    return (s === service || s === '*') && verbs.includes(v);
  });
}

/** The server's decision, as far as the browser can tell; `me` null: nobody is signed in. */
export function allowed(me: Me | null, entry: Entry | undefined, record?: Owned): boolean {
  if (!entry || entry.rule === 'public') return true;
  if (!me) return false;
  if (me.kind !== 'user' && me.kind !== 'key') return true; // authentication off, or a service
  if (me.kind === 'key' && entry.scope && !grants(me.scopes, entry.scope)) return false;
  const { role } = me;
  if (entry.rule === 'viewer' || role === 'admin') return true;
  if (entry.rule === 'admin') return false;
  if (role === 'viewer' && (entry.rule === 'member' || entry.action !== 'read')) return false;
  if (entry.rule === 'member' || !record) return true;
  // The owner rule: the record's creator, a collaborator, or someone in its team.
  const who = me.kind === 'user' ? me.email : (me.owner ?? `key:${me.name}`);
  return (
    same(who, record.createdBy) ||
    !!record.collaborators?.some((c) => same(c, who)) ||
    (!!record.team && me.teams.some((team) => same(team, record.team)))
  );
}

const WHO: Record<string, string> = {
  viewer: 'people signed in',
  member: 'members and admins',
  owner: 'its creator, its team and admins',
  admin: 'admins',
};

/** Who may call an operation, in words (`admins`), to say why something is not offered. */
export function whoMay<S extends AccessService>(service: S, operation: AccessOperation<S>) {
  return WHO[(ACCESS[service]?.[operation] as Entry | undefined)?.rule ?? ''] ?? 'others';
}

/**
 * `can(service, operation, record?)`: whether the person may call the operation (on that record,
 * under the owner rule). False while the caller is being read; true when it cannot be read for
 * another reason than 401 (the server decides); authentication off: always true.
 */
export function useCan() {
  const me = useMe();
  const signedOut = me.error instanceof PlatformError && me.error.status === 401;
  const who = me.data ?? (signedOut ? null : undefined);
  const failed = me.isError;
  return useCallback(
    <S extends AccessService>(service: S, operation: AccessOperation<S>, record?: Owned) =>
      who === undefined
        ? failed
        : allowed(who, ACCESS[service]?.[operation] as Entry | undefined, record),
    [who, failed],
  );
}
