import {
  creatorOf,
  IdOrNameParams,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  Type,
  type Access,
} from '@platform/core';
import {
  allocationColumns,
  requireAllocationTeams,
  toAllocations,
} from '../domain/owners-allocations.js';
import { catalogLookup } from '../domain/owners.js';
import type { BillingRoutes } from '../domain/state.js';
import {
  deleteAllocation,
  findAllocation,
  insertAllocation,
  listAllocations,
  updateAllocation,
  type AllocationRow,
} from '../repositories/owners-allocations.js';
import { catalogServicesById, findCatalogService, nextPriority } from '../repositories/owners.js';
import {
  AllocationInputSchema,
  AllocationListQuery,
  AllocationSchema,
  AllocationUpdateSchema,
} from '../schemas/owners.js';

const SEMANTICS =
  'Each item goes to the first allocation (by priority, then id) whose selector it matches and is split into shares that keep its other fields: fixed shares by percentage; proportional ones by the spend of each catalog service among the items of the basis, in the same UTC month and currency (positive sums only; a month without any keeps the item whole). Shares add up to the item exactly; reports by catalog service, system and owner, and the spend of budgets, count them.';

/** Allocation rules: shared costs split between catalog services. */
export const allocationRoutes: BillingRoutes = async (app, { db, platform, access, log }) => {
  // Shared knowledge: any signed-in caller reads them. The members of the teams of every catalog
  // service a rule takes spend from or sends it to (requireAllocationTeams) make it; those of the
  // team owning its selector's service change and remove it, in the same teams when a change
  // touches its selector, method, shares or basis; admins any, and alone one whose selector
  // names no catalog service.
  const owner: Access['owner'] = async (request) => {
    const ref = (request.params as { idOrName?: unknown }).idOrName;
    const rule = typeof ref === 'string' ? await findAllocation(db, ref) : undefined;
    if (!rule) return undefined;
    const id = rule.selector.catalogService;
    const service = id ? (await catalogServicesById(db, [id])).get(id) : undefined;
    return { createdBy: null, team: service?.owner ?? null };
  };
  const resource = 'billing.allocation';
  const READ: Access = { resource, action: 'read' };
  const CREATE: Access = { resource, action: 'create' };
  const UPDATE: Access = { resource, action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource, action: 'delete', rule: 'owner', owner };

  const find = async (idOrName: string) => {
    const row = await findAllocation(db, idOrName);
    if (!row) throw notFound('Allocation', idOrName);
    return row;
  };
  const shown = async (row: AllocationRow) => (await toAllocations(db, [row]))[0];
  const lookup = () => catalogLookup(db, platform, log);

  app.get(
    '/allocations',
    {
      config: { access: READ },
      schema: {
        operationId: 'listAllocations',
        summary: 'List allocation rules in the order they apply',
        description: SEMANTICS,
        querystring: AllocationListQuery,
        response: responses({ 200: Type.Array(AllocationSchema) }),
      },
    },
    async ({ query }) => {
      const ref = query.catalogService;
      const found = ref === undefined ? undefined : await findCatalogService(db, ref);
      const ids = ref === undefined ? undefined : [ref, ...(found ? [found.id] : [])];
      return ok(await toAllocations(db, await listAllocations(db, { service: ids }, query)));
    },
  );

  app.post(
    '/allocations',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createAllocation',
        summary: 'Split shared costs between catalog services',
        description: `${SEMANTICS} Catalog services are named by id or name (400 naming an unknown one); fixed shares must add up to 100; a basis may not select what the selector does. Members may when they are in the team of every catalog service it takes spend from or sends it to: its selector's and every share's; a proportional one's basis must name a catalog service of theirs (it sends spend to every service its basis selects). Admins any; alone one whose selector names no catalog service.`,
        body: AllocationInputSchema,
        response: responses({ 201: AllocationSchema }),
      },
    },
    async (request, reply) => {
      const { body } = request;
      const columns = await allocationColumns(body, undefined, lookup());
      await requireAllocationTeams(db, request.identity, access, CREATE, columns);
      const priority = columns.priority ?? (await nextPriority(db, 'allocation_rules'));
      const insert = () =>
        insertAllocation(db, {
          ...columns,
          id: newId(),
          name: body.name,
          priority,
          description: body.description ?? null,
          created_by: creatorOf(request.identity),
          team: null,
        });
      const row = await orConflict(insert, nameTaken('Allocation', body.name, 'An'));
      return reply.code(201).send(ok(await shown(row)));
    },
  );

  app.get(
    '/allocations/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getAllocation',
        summary: 'Get an allocation rule',
        description: 'By id, or by name in any case; its shares named from the catalog snapshot.',
        params: IdOrNameParams,
        response: responses({ 200: AllocationSchema }),
      },
    },
    async (request) => ok(await shown(await find(request.params.idOrName))),
  );

  app.put(
    '/allocations/:idOrName',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateAllocation',
        summary: 'Change an allocation rule',
        description:
          "Changes the fields sent, checked as on create. The members of the team owning its selector's catalog service (and admins) may; a change of its selector, method, shares or basis needs the teams a create would.",
        params: IdOrNameParams,
        body: AllocationUpdateSchema,
        response: responses({ 200: AllocationSchema }),
      },
    },
    async (request) => {
      const current = await find(request.params.idOrName);
      const { body } = request;
      const columns = await allocationColumns(body, current, lookup());
      const { selector, method, shares, basis } = body;
      if ([selector, method, shares, basis].some((field) => field !== undefined))
        await requireAllocationTeams(db, request.identity, access, UPDATE, columns);
      const update = () => updateAllocation(db, current.id, columns);
      const row = await orConflict(
        update,
        nameTaken('Allocation', body.name ?? current.name, 'An'),
      );
      if (!row) throw notFound('Allocation', current.id);
      return ok(await shown(row));
    },
  );

  app.delete(
    '/allocations/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteAllocation',
        summary: 'Remove an allocation rule',
        description:
          "Answers with the removed rule (its spend goes back to the selector's catalog service). The members of that service's team (and admins) may.",
        params: IdOrNameParams,
        response: responses({ 200: AllocationSchema }),
      },
    },
    async (request) => {
      const row = await deleteAllocation(db, (await find(request.params.idOrName)).id);
      if (!row) throw notFound('Allocation', request.params.idOrName);
      return ok(await shown(row));
    },
  );
};
