import {
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  responses,
  Type,
  type Access,
  type Static,
  unique,
  ownershipColumns,
  teamChange,
} from '@platform/core';
import type { CatalogDb } from '../database.js';
import type { CatalogRoutes } from '../domain/state.js';
import {
  deleteDomain,
  domainDependents,
  domainSystems,
  findDomain,
  getDomain,
  insertDomain,
  listDomains,
  updateDomain,
  type DomainRow,
} from '../repositories/domains.js';
import { deleteUnlessUsed, linkedGroup, linkId } from '../repositories/groups.js';
import { refLabel } from '../repositories/named.js';
import { findOwnership } from '../repositories/ownership.js';
import {
  DomainInputSchema,
  DomainListQuery,
  DomainSchema,
  DomainUpdateSchema,
  DomainWithSystemsSchema,
  toDomain,
} from '../schemas/domains.js';
import { checkLinks } from '../schemas/metadata.js';

type DomainInput = Static<typeof DomainUpdateSchema>;

/** The columns of the fields sent: the owner resolved (BAD_REQUEST when unknown), links checked. */
async function columnsOf(db: CatalogDb, fields: DomainInput) {
  const { name, namespace, title, description, type, owner, tags, links } = fields;
  const ownerRow = await linkedGroup(db, 'owners', 'owner', owner);
  return {
    name,
    namespace,
    title,
    description,
    type,
    owner_id: linkId(ownerRow),
    tags: tags && unique(tags),
    links: links === null ? [] : checkLinks(links),
  };
}

/** Domains (Backstage's Domain kind): business areas that systems belong to. */
export const domainRoutes: CatalogRoutes = async (app, { db, access }) => {
  // Shared knowledge: any signed-in caller reads; members create; the domain's creator, its team
  // and admins change or delete it.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'domains', (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'catalog.domain', action: 'read' };
  const CREATE: Access = { resource: 'catalog.domain', action: 'create' };
  const UPDATE: Access = { resource: 'catalog.domain', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'catalog.domain', action: 'delete', rule: 'owner', owner };

  /** The domain with the systems that belong to it. */
  const withSystems = async (row: DomainRow) => ({
    ...toDomain(row),
    systems: await domainSystems(db, row.id),
  });

  app.get(
    '/domains',
    {
      config: { access: READ },
      schema: {
        operationId: 'listDomains',
        summary: 'List domains by name',
        description: 'Filters owner, tag, namespace; paged.',
        querystring: DomainListQuery,
        response: responses({ 200: Type.Array(DomainSchema) }),
      },
    },
    async (request) => ok((await listDomains(db, request.query)).map(toDomain)),
  );

  app.post(
    '/domains',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createDomain',
        summary: 'Create a domain',
        description: 'A name unique in its namespace (default `default`), an owner, tags, links.',
        body: DomainInputSchema,
        response: responses({ 201: DomainSchema }),
      },
    },
    async (request, reply) => {
      const { name, team } = request.body;
      const owned = await ownershipColumns(request.identity, team, access);
      const id = newId();
      const columns = await columnsOf(db, request.body);
      const row = { ...columns, ...owned, id, name, links: columns.links ?? [] };
      const shown = refLabel(request.body.namespace ?? 'default', name);
      await orConflict(() => insertDomain(db, row), nameTaken('domain', shown));
      return reply.code(201).send(ok(toDomain(await getDomain(db, id))));
    },
  );

  app.get(
    '/domains/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getDomain',
        summary: 'Get a domain with its systems',
        description: 'By id, `namespace/name` (slash as %2F) or a name in `default`.',
        params: IdOrNameParams,
        response: responses({ 200: DomainWithSystemsSchema }),
      },
    },
    async (request) => ok(await withSystems(await findDomain(db, request.params.idOrName))),
  );

  app.put(
    '/domains/:idOrName',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateDomain',
        summary: 'Update a domain',
        description: 'Changes the fields sent; null clears an optional one.',
        params: IdOrNameParams,
        body: DomainUpdateSchema,
        response: responses({ 200: DomainWithSystemsSchema }),
      },
    },
    async (request) => {
      const { id } = await findDomain(db, request.params.idOrName);
      const { name } = request.body;
      const columns = await columnsOf(db, request.body);
      const team = await teamChange(request.identity, request.body.team, access);
      const update = () => updateDomain(db, id, { ...columns, team });
      await (name === undefined ? update() : orConflict(update, nameTaken('domain', name)));
      return ok(await withSystems(await getDomain(db, id)));
    },
  );

  app.delete(
    '/domains/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteDomain',
        summary: 'Delete a domain',
        description: 'Answers with the deleted domain; 409 while systems still belong to it.',
        params: IdOrNameParams,
        response: responses({ 200: DomainSchema }),
      },
    },
    async (request) => {
      const domain = await findDomain(db, request.params.idOrName);
      const dependents = await domainDependents(db, domain.id);
      await deleteUnlessUsed(`Domain ${domain.name}`, dependents, () =>
        deleteDomain(db, domain.id),
      );
      return ok(toDomain(domain));
    },
  );
};
