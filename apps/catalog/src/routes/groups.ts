import {
  conflict,
  nameTaken,
  findByIdOrName,
  IdOrNameParams,
  newId,
  ok,
  orConflict,
  PagedQuery,
  responses,
  stampsAt,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import { isForeignKeyViolation } from '@platform/db';
import type { CatalogDatabase, GroupRow } from '../database.js';
import {
  deleteGroup,
  insertGroup,
  listGroups,
  servicesOf,
  updateGroup,
  type GroupFields,
  type GroupTable,
  type NewGroup,
} from '../repositories/groups.js';
import { OwnerSchemas, SystemSchemas, type GroupSchemas } from '../schemas/groups.js';

/** A record as shown: its own columns as they are, the stamps as ISO text. */
const toRecord = ({ created_at, updated_at, ...fields }: GroupRow) => ({
  ...fields,
  ...stampsAt(created_at, updated_at),
});

/**
 * Systems and owners: named records that services point at. Both have the same five routes; a
 * get answers with the services that point at the record, and a delete is refused (409, naming
 * them) while any does. `resource` (`System`) is in messages and operation ids.
 */
function groupRoutes(
  table: GroupTable,
  resource: 'System' | 'Owner',
  schemas: GroupSchemas,
): ServiceRoutes<CatalogDatabase> {
  const path = `/${table}`;
  const noun = resource.toLowerCase();
  const taken = (name: string) => nameTaken(noun, name);

  return async (app, { db }) => {
    const find = (idOrName: string) => findByIdOrName(db, table, idOrName, resource);
    const withServices = async (row: GroupRow) => ({
      ...toRecord(row),
      services: await servicesOf(db, table, row.id),
    });

    app.get(
      path,
      {
        schema: {
          operationId: `list${resource}s`,
          summary: `List ${table} by name`,
          querystring: PagedQuery({}),
          response: responses({ 200: Type.Array(schemas.Record) }),
        },
      },
      async (request) => ok((await listGroups(db, table, request.query)).map(toRecord)),
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
        const fields = request.body as NewGroup;
        const insert = () => insertGroup(db, table, newId(), fields);
        const row = await orConflict(insert, taken(fields.name));
        return reply.code(201).send(ok(toRecord(row)));
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
        const fields = request.body as GroupFields;
        const update = () => updateGroup(db, table, id, fields);
        const row = await (fields.name === undefined
          ? update()
          : orConflict(update, taken(fields.name)));
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
        const names = (await servicesOf(db, table, row.id)).map((service) => service.name);
        if (names.length > 0)
          throw conflict(`${resource} ${row.name} still has services: ${names.join(', ')}`);
        try {
          await deleteGroup(db, table, row.id);
        } catch (error) {
          // A service joined it between the check and the delete (the foreign key refuses).
          if (isForeignKeyViolation(error))
            throw conflict(`${resource} ${row.name} still has services`);
          throw error;
        }
        return ok(toRecord(row));
      },
    );
  };
}

export const systemRoutes = groupRoutes('systems', 'System', SystemSchemas);
export const ownerRoutes = groupRoutes('owners', 'Owner', OwnerSchemas);
