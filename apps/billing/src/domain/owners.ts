import {
  ApiError,
  badRequest,
  describeIdentity,
  isPlatformError,
  mayOwn,
  type Access,
  type AuthorizationOptions,
  type Identity,
  type ServiceContext,
} from '@platform/core';
import type { BillingDb } from '../database.js';
import {
  findCatalogService,
  recordSnapshotFailure,
  replaceSnapshot,
  snapshotState,
  type CatalogServiceRow,
} from '../repositories/owners.js';
import { lockResolution, resolveItems, servicesScope } from '../repositories/owners-resolve.js';

// Billing's copy of the catalog: fetched through the typed client, kept when the catalog is off.

type PlatformClient = ServiceContext['platform'];

const PAGE = 1000;

/** Every record of a paged catalog list. */
async function everyPage<T>(list: (page: { limit: number; offset: number }) => Promise<T[]>) {
  const all: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await list({ limit: PAGE, offset });
    all.push(...page);
    if (page.length < PAGE) return all;
  }
}

/** A catalog record's label, as the catalog shows links: `namespace/name` outside `default`. */
const labelOf = (r: { namespace?: string; name: string }) =>
  r.namespace && r.namespace.toLowerCase() !== 'default' ? `${r.namespace}/${r.name}` : r.name;

/** The catalog's services with their system (id and label) and owner (label: a team's name). */
export async function fetchCatalog(
  platform: PlatformClient,
  signal?: AbortSignal,
): Promise<CatalogServiceRow[]> {
  const [services, systems] = await Promise.all([
    everyPage((query) => platform.catalog.listServices({ query, signal })),
    everyPage((query) => platform.catalog.listSystems({ query, signal })),
  ]);
  const systemId = new Map(systems.map((s) => [labelOf(s).toLowerCase(), s.id]));
  return services.map((s) => ({
    id: s.id,
    name: labelOf(s),
    system: s.system ? (systemId.get(s.system.toLowerCase()) ?? null) : null,
    system_name: s.system,
    owner: s.owner,
  }));
}

export interface RefreshOutcome {
  ok: boolean;
  /** Items whose resolution changed. */
  resolved: number;
  error?: string;
}

/**
 * Why the catalog could not be read, in words any reader may see: that it is off, the status and
 * code it answered, or that it cannot be reached (what the transport said, addresses included,
 * goes to the log only).
 */
function reasonOf(error: unknown) {
  const why = !isPlatformError(error)
    ? 'it cannot be reached'
    : error.status === 404 && /^Route \S+ \S+ not found$/.test(error.message)
      ? 'it is off'
      : `it answered ${error.status} ${error.code}`;
  return `The catalog could not be read: ${why}`;
}

/**
 * Fetches the catalog and, in one transaction holding the resolution lock, replaces the snapshot
 * (unless a refresh that started later stored one already) and re-resolves the items the
 * services that changed can move (servicesScope). When the catalog is off or fails, the snapshot
 * stays as it was and the attempt's reason is recorded (GET /catalog-snapshot, GET /status);
 * never throws for that. `signal` (a periodic run's): aborted, nothing is written.
 */
export async function refreshCatalog(
  db: BillingDb,
  platform: PlatformClient,
  log?: { warn(details: object, message: string): void },
  signal?: AbortSignal,
): Promise<RefreshOutcome> {
  const started = new Date();
  let services: CatalogServiceRow[];
  try {
    services = await fetchCatalog(platform, signal);
  } catch (error) {
    signal?.throwIfAborted();
    const reason = reasonOf(error);
    log?.warn({ err: error }, 'catalog snapshot kept: the catalog could not be read');
    await db.transaction().execute(async (trx) => {
      await lockResolution(trx);
      await recordSnapshotFailure(trx, reason, started);
    });
    return { ok: false, resolved: 0, error: reason };
  }
  signal?.throwIfAborted();
  const resolved = await db.transaction().execute(async (trx) => {
    await lockResolution(trx);
    const changed = await replaceSnapshot(trx, services, started);
    const scope = changed && (await servicesScope(trx, changed));
    return scope ? resolveItems(trx, scope) : 0;
  });
  return { ok: true, resolved };
}

/** The snapshot's state as the API shows it. */
export async function catalogState(db: BillingDb) {
  const state = await snapshotState(db);
  return {
    fetchedAt: state.fetched_at?.toISOString() ?? null,
    attemptedAt: state.attempted_at?.toISOString() ?? null,
    services: state.services,
    /** The last attempt failed: resolution uses the snapshot of fetchedAt. */
    stale: state.error !== null,
    error: state.error,
  };
}

/**
 * Finds catalog services in the snapshot by id or name (any case), refreshing it once when one is
 * unknown (the only time a change reads the catalog); 400 naming an unknown one (and why the
 * catalog could not tell, when it could not).
 */
export function catalogLookup(
  db: BillingDb,
  platform: PlatformClient,
  log?: { warn(details: object, message: string): void },
) {
  let refreshed: Promise<RefreshOutcome> | undefined;
  return async (ref: string, field: string): Promise<CatalogServiceRow> => {
    const known = await findCatalogService(db, ref);
    if (known) return known;
    const outcome = await (refreshed ??= refreshCatalog(db, platform, log));
    const found = outcome.ok ? await findCatalogService(db, ref) : undefined;
    if (found) return found;
    throw badRequest(
      `${field}: unknown catalog service ${JSON.stringify(ref)}${outcome.ok ? '' : ` (${outcome.error}; its last snapshot does not have it)`}`,
    );
  };
}

export type CatalogLookup = ReturnType<typeof catalogLookup>;

/** A 403 naming what the caller lacks. */
export const forbidden = (identity: Identity, declared: Access, missing: string) =>
  new ApiError(
    'FORBIDDEN',
    `${describeIdentity(identity)} may not ${declared.action} ${declared.resource}: it needs ${missing}`,
  );

/**
 * 403 unless the caller may act for the team owning the catalog service: its members, admins (a
 * service without an owner: admins only; none at all: admins only, `none` saying why). What a
 * change naming a catalog service must pass besides the route's own check.
 */
export async function requireTeamOf(
  identity: Identity,
  access: AuthorizationOptions,
  declared: Access,
  service: CatalogServiceRow | null,
  none = 'it names no catalog service, so no team owns it',
) {
  const ownership = { createdBy: null, team: service?.owner ?? null };
  if (await mayOwn(identity, ownership, access)) return;
  const missing = !service
    ? `the role admin (${none})`
    : service.owner
      ? `membership of team ${service.owner} (the owner of catalog service ${service.name})`
      : `the role admin (catalog service ${service.name} has no owner)`;
  throw forbidden(identity, declared, missing);
}
