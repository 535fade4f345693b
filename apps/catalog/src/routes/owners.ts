import {
  badRequest,
  conflict,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  responses,
  Type,
  unique,
  type Access,
  type Static,
  ownershipColumns,
} from '@platform/core';
import type { CatalogDb } from '../database.js';
import type { CatalogRoutes } from '../domain/state.js';
import { deleteUnlessUsed, linkedGroup, linkId } from '../repositories/groups.js';
import {
  ancestorsOf,
  childrenOf,
  deleteOwner,
  findOwner,
  getOwner,
  insertOwner,
  listOwners,
  ownerDependents,
  membershipsOf,
  ownerServices,
  updateOwner,
  type OwnerRow,
} from '../repositories/owners.js';
import { DEFAULT_NAMESPACE, refLabel, slashTwin } from '../repositories/named.js';
import { findOwnerOwnership } from '../repositories/ownership.js';
import {
  OwnerInputSchema,
  OwnerListQuery,
  OwnerSchema,
  OwnerUpdateSchema,
  OwnerWithServicesSchema,
  toOwner,
} from '../schemas/owners.js';

type OwnerInput = Static<typeof OwnerUpdateSchema>;

/**
 * The columns of the fields sent (`current`: the owner being updated, undefined on create): the
 * parent resolved (BAD_REQUEST when unknown or not a group; only a group has one), members in
 * lower case without repeats. A group with child groups does not become a user (409).
 */
async function columnsOf(db: CatalogDb, fields: OwnerInput, current?: OwnerRow) {
  const { name, email, team, kind, parent, members, namespace, type, picture, description } =
    fields;
  const row = await linkedGroup(db, 'owners', 'parent', parent);
  if (row && row.kind !== 'group')
    throw badRequest(`parent must be a group: ${row.name} is a ${row.kind}`);
  const becomes = kind ?? current?.kind ?? 'group';
  const parentId = row === undefined ? (current?.parent_id ?? null) : (row?.id ?? null);
  if (becomes !== 'group' && parentId !== null)
    throw badRequest(`parent: only a group can have a parent, and this owner is a ${becomes}`);
  if (current && becomes !== 'group' && current.kind === 'group') {
    const children = (await childrenOf(db, current.id)).map((child) => child.name);
    if (children.length > 0)
      throw conflict(`Owner ${current.name} still has child groups: ${children.join(', ')}`);
  }
  if (name !== undefined || namespace !== undefined) {
    const where = namespace ?? current?.namespace ?? DEFAULT_NAMESPACE;
    const what = name ?? current!.name;
    const twin = await slashTwin(db, where, what);
    if (twin && twin.id !== current?.id)
      throw conflict(
        `${nameTaken('owner', `${where}/${what}`)}: owner ${twin.id} in ${DEFAULT_NAMESPACE}, made before names lost their slash, is that team`,
      );
  }
  const emails = members && unique(members.map((m) => m.toLowerCase()));
  return {
    name,
    namespace,
    email,
    team,
    kind,
    type,
    picture,
    description,
    parent_id: linkId(row),
    members: emails,
  };
}

/** A cycle the new parent would close: the chain from the owner through its new ancestors. */
async function refuseCycle(db: CatalogDb, owner: OwnerRow, parentId: string | null | undefined) {
  if (typeof parentId !== 'string') return;
  const chain = await ancestorsOf(db, parentId);
  const at = chain.findIndex((group) => group.id === owner.id);
  if (at >= 0)
    throw badRequest(
      `parent would make a cycle: ${[owner.name, ...chain.slice(0, at + 1).map((g) => g.name)].join(' -> ')}`,
    );
}

/**
 * Owners: the teams (groups, which may sit under a parent group) and people that services, APIs
 * and systems point at. An owner's `team` is a display name: the team that owns an owner record
 * is the owner itself.
 */
export const ownerRoutes: CatalogRoutes = async (app, { db, access, state }) => {
  // Shared knowledge: any signed-in caller reads; members create; the owner's own team (its
  // members manage it) and admins change or delete it.
  const owner: Access['owner'] = (request) =>
    findOwnerOwnership(db, (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'catalog.owner', action: 'read' };
  const CREATE: Access = { resource: 'catalog.owner', action: 'create' };
  const UPDATE: Access = { resource: 'catalog.owner', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'catalog.owner', action: 'delete', rule: 'owner', owner };

  /** The owner with the services that point at it and its child groups. */
  const withServices = async (row: OwnerRow) => ({
    ...toOwner(row),
    services: await ownerServices(db, row.id),
    children: await childrenOf(db, row.id),
    ...(await membershipsOf(db, row.id)),
  });

  app.get(
    '/owners',
    {
      config: { access: READ },
      schema: {
        operationId: 'listOwners',
        summary: 'List owners by name',
        querystring: OwnerListQuery,
        response: responses({ 200: Type.Array(OwnerSchema) }),
      },
    },
    async (request) => ok((await listOwners(db, request.query)).map(toOwner)),
  );

  app.post(
    '/owners',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createOwner',
        summary: 'Create a owner',
        body: OwnerInputSchema,
        response: responses({ 201: OwnerSchema }),
      },
    },
    async (request, reply) => {
      const { name, members = [] } = request.body;
      const owned = await ownershipColumns(request.identity, undefined, access);
      // Listing a new team's members is for admins and those the identity provider puts in it
      // (the team of an owner outside `default` is `namespace/name`).
      const teamName = refLabel(request.body.namespace ?? DEFAULT_NAMESPACE, name);
      if (members.length > 0) await ownershipColumns(request.identity, teamName, access);
      const id = newId();
      const columns = await columnsOf(db, request.body);
      const row = { ...columns, id, name, created_by: owned.created_by };
      await orConflict(() => insertOwner(db, row), nameTaken('owner', name));
      return reply.code(201).send(ok(toOwner(await getOwner(db, id))));
    },
  );

  app.get(
    '/owners/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getOwner',
        summary: 'Get a owner with its services',
        params: IdOrNameParams,
        response: responses({ 200: OwnerWithServicesSchema }),
      },
    },
    async (request) => ok(await withServices(await findOwner(db, request.params.idOrName))),
  );

  app.put(
    '/owners/:idOrName',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateOwner',
        summary: 'Update a owner',
        description: 'Changes the fields sent; null clears an optional one.',
        params: IdOrNameParams,
        body: OwnerUpdateSchema,
        response: responses({ 200: OwnerWithServicesSchema }),
      },
    },
    async (request) => {
      const current = await findOwner(db, request.params.idOrName);
      const { name } = request.body;
      const columns = await columnsOf(db, request.body, current);
      // Parents change one at a time (ancestorsOf locks them): two cannot each close half a cycle.
      const update = () =>
        db.transaction().execute(async (trx) => {
          await refuseCycle(trx, current, columns.parent_id);
          await updateOwner(trx, current.id, columns);
        });
      await (name === undefined ? update() : orConflict(update, nameTaken('owner', name)));
      // Renamed: its services' scorecard results name it (a deletion is refused while it has any).
      if (name !== undefined || request.body.namespace !== undefined)
        await state.scorecards.groupChanged('owner_id', current.id);
      return ok(await withServices(await getOwner(db, current.id)));
    },
  );

  app.delete(
    '/owners/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteOwner',
        summary: 'Delete a owner',
        description:
          'Answers with the deleted owner; 409 while services, APIs, systems or child groups still point at it, naming them.',
        params: IdOrNameParams,
        response: responses({ 200: OwnerSchema }),
      },
    },
    async (request) => {
      const row = await findOwner(db, request.params.idOrName);
      const dependents = await ownerDependents(db, row.id);
      await deleteUnlessUsed(`Owner ${row.name}`, dependents, () => deleteOwner(db, row.id));
      return ok(toOwner(row));
    },
  );
};
