import { ACCESS, type PlatformClient } from '@platform/client';
import {
  decide,
  describeIdentity,
  isPlatformError,
  ruleOf,
  type Access,
  type Identity,
} from '@platform/core';

/**
 * One part of an overview (or one source of a scorecard evaluation) that another service answers:
 * its data with `available: true`, or `available: false` with the reason (the service is off, not
 * reachable, too slow, or would not let the caller read it). One failing part never fails the rest.
 */
export type Part<T extends object> = ({ available: true } & T) | Unavailable;
export interface Unavailable {
  available: false;
  reason: string;
}

export const unavailable = (reason: string): Unavailable => ({ available: false, reason });

/** How a part asks another service: as whom, through which client, how long it waits. */
export interface Asking {
  /** The typed client: acting for the caller (`platformFor`), or the catalog's own (`platform`). */
  client: PlatformClient;
  /** The caller whose rights bound what it sees; undefined: the catalog itself (evaluations). */
  caller?: Identity;
  authOn: boolean;
  timeoutMs: number;
  /** Where a failure's details go (never to the caller: they may name hosts and addresses). */
  log?: { warn(details: object, message: string): void };
}

type Operations = Record<string, Record<string, Access>>;

/**
 * Whether the caller may call `service.operation` directly: the operation's own declaration
 * (the generated ACCESS table, the OpenAPI document's `x-access`) decided by the one policy. The
 * other service sees the catalog acting for the caller, which it trusts as the platform's own
 * code; this check is what keeps the overview from showing what the caller could not read. An
 * operation decided by ownership (rule `owner`) is refused for any caller: whose the record is,
 * only its own service knows. Undefined when allowed, else why not.
 */
export function denied(
  ask: Pick<Asking, 'caller' | 'authOn'>,
  service: string,
  operation: string,
): string | undefined {
  const access = (ACCESS as unknown as Operations)[service]?.[operation];
  if (!access) return `The ${service} service has no ${operation} operation on this platform`;
  if (!ask.caller) return undefined;
  if (ruleOf(access) === 'owner')
    return `The ${service} service decides ${operation} by ownership: the catalog does not ask it for a caller`;
  const decision = decide({ identity: ask.caller, teams: [] }, access, ask.authOn);
  if (decision.allowed) return undefined;
  return `${describeIdentity(ask.caller)} may not ${access.action} ${access.resource}: it needs ${decision.missing}`;
}

/** A part that cannot be read whole (a list longer than the catalog reads): why, as its reason. */
export class Unreadable extends Error {}

/**
 * Why a call to a peer failed, in words a page can show: the peer's own envelope (its code and
 * message), else a generic reason; what the transport said (hosts, addresses) is logged only.
 */
export function failure(service: string, error: unknown, log?: Asking['log']): string {
  if (error instanceof Unreadable) return error.message;
  if (isPlatformError(error)) {
    const { status, code, message } = error;
    // A route no one serves: the service is switched off (its flag) or not mounted here.
    if (status === 404 && /^Route \S+ \S+ not found$/.test(message))
      return `The ${service} service is off: ${message}`;
    if (status === 401 || status === 403) return `The ${service} service refused it: ${message}`;
    if (status >= 500) return `The ${service} service failed (${status} ${code}): ${message}`;
    return `The ${service} service answered ${status} ${code}: ${message}`;
  }
  log?.warn({ service, err: error }, `catalog: the ${service} service cannot be reached`);
  return `The ${service} service cannot be reached`;
}

class TimedOut extends Error {}

/**
 * `work`, or a TimedOut error after `ms`: the signal `work` is given is aborted then, which the
 * typed client passes on (an in-process request is dropped, an HTTP one closed).
 */
export async function within<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new TimedOut());
      abort.abort();
    }, ms);
  });
  const working = work(abort.signal);
  try {
    return await Promise.race([working, late]);
  } finally {
    clearTimeout(timer);
    working.catch(() => undefined); // a late failure is nobody's
  }
}

/**
 * One part from a peer: the caller's right to `service.operation` checked first, then `read`;
 * any failure becomes the part's reason. `read` bounds its own calls (`within`).
 */
export async function guarded<T extends object>(
  asking: Asking,
  service: string,
  operation: string,
  read: () => Promise<T>,
): Promise<Part<T>> {
  const refused = denied(asking, service, operation);
  if (refused) return unavailable(refused);
  try {
    return { available: true, ...(await read()) };
  } catch (error) {
    if (error instanceof TimedOut)
      return unavailable(`The ${service} service did not answer within ${asking.timeoutMs} ms`);
    return unavailable(failure(service, error, asking.log));
  }
}

/** Asks a peer for one part (`guarded`), the whole of `work` within the timeout. */
export function ask<T extends object>(
  asking: Asking,
  service: string,
  operation: string,
  work: (client: PlatformClient, signal: AbortSignal) => Promise<T>,
): Promise<Part<T>> {
  return guarded(asking, service, operation, () =>
    within(asking.timeoutMs, (signal) => work(asking.client, signal)),
  );
}
