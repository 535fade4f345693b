import Big from 'big.js';
import { badRequest, type Access, type AuthorizationOptions, type Identity } from '@platform/core';
import type { BillingDb, SpendSelector } from '../database.js';
import type { AllocationRow } from '../repositories/owners-allocations.js';
import { catalogServicesById } from '../repositories/owners.js';
import type { AllocationInput } from '../schemas/owners.js';
import { requireTeamOf, type CatalogLookup as Lookup } from './owners.js';

/** A selector as stored: its catalog service as an id; 400 when it selects nothing in particular. */
async function selectorOf(selector: SpendSelector, field: string, lookup: Lookup) {
  const { catalogService, provider, service, tag } = selector;
  if (!catalogService && !provider && !service && !tag)
    throw badRequest(`${field} needs at least one of catalogService, provider, service, tag`);
  const stored: SpendSelector = {};
  if (catalogService)
    stored.catalogService = (await lookup(catalogService, `${field}.catalogService`)).id;
  if (provider) stored.provider = provider;
  if (service) stored.service = service;
  if (tag) stored.tag = tag;
  return stored;
}

/** Whether two selectors select the same items (provider and service compare in any case). */
const sameItems = (a: SpendSelector, b: SpendSelector) =>
  a.catalogService === b.catalogService &&
  a.provider?.toLowerCase() === b.provider?.toLowerCase() &&
  a.service?.toLowerCase() === b.service?.toLowerCase() &&
  a.tag === b.tag;

/**
 * 403 unless the caller is in the team of every catalog service the rule takes spend from or
 * sends it to: its selector's, every share's; a proportional one sends spend to every service
 * its basis selects, so its basis must name a catalog service of the caller's team (admins any).
 */
export async function requireAllocationTeams(
  db: BillingDb,
  identity: Identity,
  access: AuthorizationOptions,
  declared: Access,
  rule: Pick<AllocationRow, 'method' | 'selector' | 'shares' | 'basis'>,
) {
  const basis = rule.method === 'proportional' ? rule.basis?.catalogService : undefined;
  const ids = [rule.selector.catalogService, ...rule.shares.map((s) => s.service), basis];
  const known = await catalogServicesById(db, [...new Set(ids.filter((id) => id !== undefined))]);
  const service = (id: string | undefined) => (id && known.get(id)) || null;
  await requireTeamOf(identity, access, declared, service(rule.selector.catalogService));
  for (const share of rule.shares)
    await requireTeamOf(identity, access, declared, service(share.service));
  if (rule.method === 'proportional')
    await requireTeamOf(
      identity,
      access,
      declared,
      service(basis),
      'its basis names no catalog service, so it may send spend to any team',
    );
}

/** Fixed shares as stored: catalog service ids, each once, percentages adding up to 100. */
async function sharesOf(shares: AllocationInput['shares'], lookup: Lookup) {
  if (!shares?.length) throw badRequest('shares: a fixed allocation needs at least one share');
  const stored: Array<{ service: string; percent: number }> = [];
  for (const [i, share] of shares.entries()) {
    const found = await lookup(share.service, `shares[${i}].service`);
    if (stored.some((s) => s.service === found.id))
      throw badRequest(`shares: catalog service ${found.name} is named twice`);
    stored.push({ service: found.id, percent: share.percent });
  }
  const total = shares.reduce((sum, s) => sum.plus(String(s.percent)), new Big(0));
  if (!total.eq(100))
    throw badRequest(`shares: the percentages add up to ${total.toFixed()}, not 100`);
  return stored;
}

/**
 * The columns of an allocation rule from the fields sent over the current ones (an update):
 * every catalog service resolved to an id (400 naming an unknown one); fixed needs shares adding
 * up to 100, proportional a basis (and no shares).
 */
export async function allocationColumns(
  input: Partial<AllocationInput>,
  current: AllocationRow | undefined,
  lookup: Lookup,
) {
  const method = input.method ?? current?.method;
  if (!method) throw badRequest('method is required: fixed or proportional');
  const selector = input.selector
    ? await selectorOf(input.selector, 'selector', lookup)
    : current?.selector;
  if (!selector) throw badRequest('selector is required');
  let shares = current?.shares ?? [];
  let basis = current?.basis ?? null;
  if (method === 'fixed') {
    if (input.shares !== undefined || current?.method !== 'fixed')
      shares = await sharesOf(input.shares, lookup);
    if (input.basis)
      throw badRequest('basis is for proportional allocations; fixed ones take shares');
    basis = null;
  } else {
    if (input.shares?.length)
      throw badRequest('shares are for fixed allocations; proportional ones take a basis');
    shares = [];
    if (input.basis !== undefined || current?.method !== 'proportional') {
      if (!input.basis) throw badRequest('basis: a proportional allocation needs a basis selector');
      basis = await selectorOf(input.basis, 'basis', lookup);
    }
    if (basis && sameItems(selector, basis))
      throw badRequest(
        'basis selects the same items as selector: a proportional allocation splits the shared items by the spend of others',
      );
  }
  return {
    name: input.name,
    priority: input.priority,
    description: input.description,
    method,
    selector,
    shares,
    basis,
  };
}

/** An allocation rule as the API shows it, its catalog services named from the snapshot. */
export async function toAllocations(db: BillingDb, rows: AllocationRow[]) {
  const ids = rows.flatMap((r) => r.shares.map((s) => s.service));
  const known = await catalogServicesById(db, [...new Set(ids)]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    priority: row.priority,
    selector: row.selector,
    method: row.method,
    shares: row.shares.map((s) => ({
      service: {
        id: s.service,
        name: known.get(s.service)?.name ?? null,
        system: known.get(s.service)?.system ?? null,
        owner: known.get(s.service)?.owner ?? null,
      },
      percent: s.percent,
    })),
    basis: row.basis,
    description: row.description,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }));
}
