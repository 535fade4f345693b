import {
  ApiError,
  badRequest,
  describeIdentity,
  isPlatformError,
  roleOf,
  type Identity,
  type ServiceContext,
} from '@platform/core';
import { sql } from '@platform/db';
import type { BillingDb } from '../database.js';
import { findCatalogService, snapshotState } from '../repositories/owners.js';
import { ALERT_APP, registerOn, registrationOf } from './budgets-outbox.js';
import { refreshCatalog } from './owners.js';

// What a budget names is checked before it is stored: its channel with communication (and that
// billing may send there), its catalog service and owner with billing's copy of the catalog.

type Platform = ServiceContext['platform'];
type Log = { warn(details: object, message: string): void };

/** communication could not say: 503, nothing stored. */
function unavailable(ref: string, error: unknown) {
  const why = isPlatformError(error)
    ? `${error.status} ${error.message}`
    : (error as Error).message;
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    `The channel ${ref} cannot be checked: the communication service is off or failing (${why}); nothing was stored`,
  );
}

/**
 * The channel a budget names, as communication knows it, and on which billing may send: 400 when
 * there is none (or communication refuses the reference); 503 when communication cannot say (off:
 * its routes answer as absent ones; failing; not reachable). Channels are admin configuration: a
 * budget's channel must be one the app `billing` is registered on (an admin registered it); when
 * it is not, an admin's request registers it (acting for the admin), anyone else's is a 403 naming
 * what is missing.
 */
export async function checkChannel(
  ctx: { platform: Platform; platformFor: ServiceContext['platformFor'] },
  ref: string,
  identity: Identity,
  authOn: boolean,
) {
  const comm = ctx.platform.communication;
  let channel;
  try {
    channel = await comm.getChannel({ path: { id: ref } });
  } catch (error) {
    if (isPlatformError(error) && error.status === 404 && /^Channel not found/.test(error.message))
      throw badRequest(`channel: Channel not found: ${ref} (communication)`);
    if (isPlatformError(error) && error.status >= 400 && error.status < 500 && error.status !== 404)
      throw badRequest(`channel: ${error.message} (communication)`);
    throw unavailable(ref, error);
  }
  try {
    if (await registrationOf(comm, channel.id)) return { id: channel.id, name: channel.name };
  } catch (error) {
    throw unavailable(ref, error);
  }
  if (roleOf(identity, authOn) !== 'admin')
    throw new ApiError(
      'FORBIDDEN',
      `${describeIdentity(identity)} may not send billing alerts to channel ${channel.name}: it needs the role admin, or the app ${ALERT_APP} registered on channel ${channel.name} by an admin (POST /api/v1/communication/apps/${ALERT_APP}/channels)`,
    );
  try {
    await registerOn(ctx.platformFor(identity).communication, channel.id);
  } catch (error) {
    throw unavailable(ref, error);
  }
  return { id: channel.id, name: channel.name };
}

/** A budget's filter as stored: the provider in lower case (spend compares it in any case). */
export function normalizeFilter<T extends { provider?: string }>(filter: T): T {
  return filter.provider === undefined
    ? filter
    : { ...filter, provider: filter.provider.toLowerCase() };
}

const ownerKnown = async (db: BillingDb, owner: string) =>
  (await db
    .selectFrom('catalog_services')
    .select('id')
    .where(sql<boolean>`lower(owner) = lower(${owner})`)
    .limit(1)
    .executeTakeFirst()) !== undefined;

/**
 * 400 naming a filter's catalog service or owner that billing's copy of the catalog does not know
 * (its service by id or name, its owner as the owner of one of its services; any case), after
 * reading the catalog again once. While billing never had a copy (the catalog never answered), a
 * name cannot be checked and is taken as given.
 */
export async function checkFilter(
  db: BillingDb,
  platform: Platform,
  log: Log,
  filter: { service?: string; owner?: string },
) {
  const { service, owner } = filter;
  const known = async () => ({
    service: service === undefined || (await findCatalogService(db, service)) !== undefined,
    owner: owner === undefined || (await ownerKnown(db, owner)),
  });
  let found = await known();
  if (found.service && found.owner) return;
  const refreshed = await refreshCatalog(db, platform, log);
  if (refreshed.ok) found = await known();
  else if ((await snapshotState(db)).fetched_at === null) return;
  const stale = refreshed.ok ? '' : ` (${refreshed.error}; its last copy does not have it)`;
  if (!found.service)
    throw badRequest(
      `filter.service: unknown catalog service ${JSON.stringify(service)} in billing's copy of the catalog${stale}`,
    );
  if (!found.owner)
    throw badRequest(
      `filter.owner: no catalog service is owned by ${JSON.stringify(owner)} in billing's copy of the catalog${stale}`,
    );
}
