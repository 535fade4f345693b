import {
  conflict,
  IdOrNameParams,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  stampsAt,
  Type,
  type ServiceRoutes,
  type TSchema,
} from '@platform/core';
import { isForeignKeyViolation } from '@platform/db';
import type { CatalogDatabase, CatalogDb, OwnerRow, SystemRow } from '../database.js';
import {
  deleteOwner,
  findOwner,
  insertOwner,
  listOwners,
  servicesOfOwner,
  updateOwner,
  type OwnerFields,
} from '../repositories/owners.js';
import {
  deleteSystem,
  findSystem,
  insertSystem,
  listSystems,
  servicesOfSystem,
  updateSystem,
  type SystemFields,
} from '../repositories/systems.js';
import { PageQuerySchema } from '../schemas/common.js';
import {
  OwnerInputSchema,
  OwnerSchema,
  OwnerUpdateSchema,
  OwnerWithServicesSchema,
  type Owner,
} from '../schemas/owners.js';
import {
  SystemInputSchema,
  SystemSchema,
  SystemUpdateSchema,
  SystemWithServicesSchema,
  type System,
} from '../schemas/systems.js';

/**
 * Systems and owners: named records that services point at. Both have the same five routes; a
 * get answers with the services that point at the record, and a delete is refused (409, naming
 * them) while any does.
 */
interface Group<Row extends { id: string; name: string }, Fields extends { name: string }> {
  /** `System`: in messages and (with `plural`) in operation ids. */
  resource: 'System' | 'Owner';
  plural: 'Systems' | 'Owners';
  schemas: { Record: TSchema; WithServices: TSchema; Input: TSchema; Update: TSchema };
  toRecord: (row: Row) => object;
  list: (db: CatalogDb, page: { limit: number; offset: number }) => Promise<Row[]>;
  find: (db: CatalogDb, idOrName: string) => Promise<Row | undefined>;
  /** undefined when the name is taken. */
  insert: (db: CatalogDb, id: string, fields: Fields) => Promise<Row | undefined>;
  update: (db: CatalogDb, id: string, fields: Partial<Fields>) => Promise<Row>;
  remove: (db: CatalogDb, id: string) => Promise<void>;
  services: (db: CatalogDb, id: string) => Promise<Array<{ id: string; name: string }>>;
}

function groupRoutes<Row extends { id: string; name: string }, Fields extends { name: string }>(
  group: Group<Row, Fields>,
): ServiceRoutes<CatalogDatabase> {
  const { resource, plural, schemas } = group;
  const path = `/${plural.toLowerCase()}`;
  const noun = resource.toLowerCase();

  return async (app, { db }) => {
    const find = async (idOrName: string) => {
      const row = await group.find(db, idOrName);
      if (!row) throw notFound(resource, idOrName);
      return row;
    };
    const withServices = async (row: Row) => ({
      ...group.toRecord(row),
      services: await group.services(db, row.id),
    });

    app.get(
      path,
      {
        schema: {
          operationId: `list${plural}`,
          summary: `List ${plural.toLowerCase()} by name`,
          querystring: PageQuerySchema,
          response: responses({ 200: Type.Array(schemas.Record) }),
        },
      },
      async (request) => ok((await group.list(db, request.query)).map(group.toRecord)),
    );

    app.post(
      path,
      {
        schema: {
          operationId: `create${resource}`,
          summary: `Create a ${noun}`,
          body: schemas.Input,
          response: responses({ 201: schemas.Record }),
        },
      },
      async (request, reply) => {
        const fields = request.body as Fields;
        const row = await group.insert(db, newId(), fields);
        if (!row) throw conflict(nameTaken(resource, fields.name));
        return reply.code(201).send(ok(group.toRecord(row)));
      },
    );

    app.get(
      `${path}/:idOrName`,
      {
        schema: {
          operationId: `get${resource}`,
          summary: `Get a ${noun} with its services`,
          params: IdOrNameParams,
          response: responses({ 200: schemas.WithServices }),
        },
      },
      async (request) => ok(await withServices(await find(request.params.idOrName))),
    );

    app.put(
      `${path}/:idOrName`,
      {
        schema: {
          operationId: `update${resource}`,
          summary: `Update a ${noun}`,
          description: 'Changes the fields sent; null clears an optional one.',
          params: IdOrNameParams,
          body: schemas.Update,
          response: responses({ 200: schemas.WithServices }),
        },
      },
      async (request) => {
        const { id } = await find(request.params.idOrName);
        const fields = request.body as Partial<Fields>;
        const update = group.update(db, id, fields);
        const row = await (fields.name === undefined
          ? update
          : orConflict(update, nameTaken(resource, fields.name)));
        return ok(await withServices(row));
      },
    );

    app.delete(
      `${path}/:idOrName`,
      {
        schema: {
          operationId: `delete${resource}`,
          summary: `Delete a ${noun}`,
          description: `Answers with the deleted ${noun}; 409 while services still belong to it, naming them.`,
          params: IdOrNameParams,
          response: responses({ 200: schemas.Record }),
        },
      },
      async (request) => {
        const row = await find(request.params.idOrName);
        const services = await group.services(db, row.id);
        if (services.length > 0)
          throw conflict(
            `${resource} ${row.name} still has services: ${services.map((s) => s.name).join(', ')}`,
          );
        try {
          await group.remove(db, row.id);
        } catch (error) {
          // A service joined it between the check and the delete (the foreign key refuses).
          if (isForeignKeyViolation(error))
            throw conflict(`${resource} ${row.name} still has services`);
          throw error;
        }
        return ok(group.toRecord(row));
      },
    );
  };
}

export const systemRoutes = groupRoutes<SystemRow, SystemFields>({
  resource: 'System',
  plural: 'Systems',
  schemas: {
    Record: SystemSchema,
    WithServices: SystemWithServicesSchema,
    Input: SystemInputSchema,
    Update: SystemUpdateSchema,
  },
  toRecord: (row): System => ({
    id: row.id,
    name: row.name,
    description: row.description,
    ...stampsAt(row.created_at, row.updated_at),
  }),
  list: listSystems,
  find: findSystem,
  insert: insertSystem,
  update: updateSystem,
  remove: deleteSystem,
  services: servicesOfSystem,
});

export const ownerRoutes = groupRoutes<OwnerRow, OwnerFields>({
  resource: 'Owner',
  plural: 'Owners',
  schemas: {
    Record: OwnerSchema,
    WithServices: OwnerWithServicesSchema,
    Input: OwnerInputSchema,
    Update: OwnerUpdateSchema,
  },
  toRecord: (row): Owner => ({
    id: row.id,
    name: row.name,
    email: row.email,
    team: row.team,
    ...stampsAt(row.created_at, row.updated_at),
  }),
  list: listOwners,
  find: findOwner,
  insert: insertOwner,
  update: updateOwner,
  remove: deleteOwner,
  services: servicesOfOwner,
});
