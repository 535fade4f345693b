import {
  Allowed,
  api,
  Badge,
  Loading,
  PlatformError,
  Status,
  useCan,
  useMe,
  useQuery,
  type AccessOperation,
  type OperationRef,
  type Owned,
} from '@platform/ui';
import type { ReactNode } from 'react';

/** The path of an app's pages: `/apps/<appId>` and what follows. */
export const appPath = (appId: string, rest = '') => `/apps/${encodeURIComponent(appId)}${rest}`;

const NO_ONE: Owned = { createdBy: null, team: null };

/**
 * Who owns an app's registrations, sends and deliveries, as the server asks stage: the creator and
 * team of the published app whose sid it is, else no one (admins only). Read only when it decides
 * (a member or a viewer); `owner` undefined otherwise.
 */
export function useAppOwner(appId: string): { pending: boolean; owner?: Owned } {
  const me = useMe();
  const who = me.data;
  const asks = !!who && (who.kind === 'user' || who.kind === 'key') && who.role !== 'admin';
  const app = useQuery({
    queryKey: ['stage', 'owner', appId],
    queryFn: async (): Promise<Owned> => {
      try {
        const found = await api.stage.getApp({ path: { sid: appId } });
        return found.sid === appId ? { createdBy: found.createdBy, team: found.team } : NO_ONE;
      } catch (error) {
        if (error instanceof PlatformError && error.status === 404) return NO_ONE;
        throw error;
      }
    },
    enabled: asks,
  });
  if (me.isPending || (asks && app.isPending)) return { pending: true };
  return { pending: false, owner: asks ? (app.data ?? NO_ONE) : undefined };
}

/** Whether the person may call an operation on the app's things; false while that is read. */
export function useMayForApp(appId: string) {
  const app = useAppOwner(appId);
  const can = useCan();
  return (operation: AccessOperation<'communication'>) =>
    !app.pending && can('communication', operation, app.owner);
}

/** A page of an app's, shown to whom may call `requires` on it; else who may. */
export function ForApp({
  appId,
  requires,
  title,
  what,
  children,
}: {
  appId: string;
  requires: OperationRef;
  title: string;
  what: string;
  children: ReactNode;
}) {
  const app = useAppOwner(appId);
  if (app.pending) return <Loading />;
  return (
    <Allowed requires={requires} record={app.owner} title={title} what={what}>
      {children}
    </Allowed>
  );
}

/** A JSON object typed in a form; empty is undefined, a mistake names the field. */
export function parseObject(name: string, text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${name} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${name} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** A delivery's or an attempt's status: accepted (still going) in the accent colour. */
export function DeliveryStatus({ value }: { value: string }) {
  if (value === 'accepted') return <Badge tone="accent">accepted</Badge>;
  if (value === 'retry') return <Badge tone="warning">retry</Badge>;
  return <Status value={value} />;
}
