import {
  PageQuery,
  Type,
  conflict,
  newId,
  notFound,
  ok,
  responses,
  type FastifyPluginAsyncTypebox,
  type TSchema,
  Nullable,
} from '@platform/core';
import { isForeignKeyViolation, isUniqueViolation, selectByIdOrName, sql } from '@platform/db';
import { servicesWhere, type CatalogDb, type OwnerRow, type SystemRow } from '../repository.js';
import { Description, IdOrName, Name, ServiceRef, Stamps, stamps } from './schemas.js';

/**
 * Systems and owners: named records that services point at. Both have the same five routes; a
 * get answers with the services that point at the record, and a delete is refused (409, naming
 * them) while any does.
 */
/** A record as shown: the shared fields and the group's own. */
interface ShownRecord {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

interface Group<Row> {
  table: 'systems' | 'owners';
  /** The service column that points at it. */
  column: 'system_id' | 'owner_id';
  resource: 'System' | 'Owner';
  /** Its optional fields besides name, as received (null clears one). */
  fields: Record<string, TSchema>;
  /** Its fields as shown, besides id, name and the time stamps. */
  shown: Record<string, TSchema>;
  /** Columns of those fields, for the fields that were sent. */
  columns: string[];
  toRecord: (row: Row) => ShownRecord;
}

function groupRoutes<Row extends { id: string; name: string }>(
  group: Group<Row>,
): FastifyPluginAsyncTypebox<{ catalog: CatalogDb }> {
  const path = `/${group.table}`;
  const noun = group.resource.toLowerCase();
  const tags = ['catalog'];
  const shown = { id: Type.String(), name: Type.String(), ...group.shown, ...Stamps };
  const Shown = Type.Object(shown);
  const WithServices = Type.Object({
    ...shown,
    services: Type.Array(ServiceRef, { description: `Services of this ${noun}` }),
  });
  const Input = Type.Object({ name: Name(`${noun} name`), ...group.fields });
  const Update = Type.Object({ name: Type.Optional(Name(`${noun} name`)), ...group.fields });
  /** The columns of the fields that were sent. */
  const toColumns = (input: Record<string, unknown>) =>
    Object.fromEntries(
      group.columns.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]),
    );
  const nameTaken = (name: string) => conflict(`A ${noun} named ${name} exists already`);

  return async (app, { catalog }) => {
    const find = async (idOrName: string) => {
      const row = await selectByIdOrName<Row>(catalog, group.table, idOrName);
      if (!row) throw notFound(group.resource, idOrName);
      return row;
    };
    const withServices = async (row: Row) => ({
      ...group.toRecord(row),
      services: await servicesWhere(catalog, group.column, row.id),
    });

    app.get(
      path,
      {
        schema: {
          tags,
          summary: `List ${group.table} by name`,
          querystring: Type.Object({ ...PageQuery }),
          response: responses({ 200: Type.Array(Shown) }),
        },
      },
      async (request) => {
        const rows = await catalog
          .selectFrom(group.table as 'systems')
          .selectAll()
          .orderBy(sql`lower(name)`)
          .limit(request.query.limit)
          .offset(request.query.offset)
          .execute();
        return ok((rows as unknown as Row[]).map(group.toRecord));
      },
    );

    app.post(
      path,
      {
        schema: {
          tags,
          summary: `Create a ${noun}`,
          body: Input,
          response: responses({ 201: Shown }),
        },
      },
      async (request, reply) => {
        const body = request.body as { name: string } & Record<string, unknown>;
        const row = await catalog
          .insertInto(group.table as 'systems')
          .values({ id: newId(), name: body.name, ...toColumns(body) })
          .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!row) throw nameTaken(body.name);
        return reply.code(201).send(ok(group.toRecord(row as unknown as Row)));
      },
    );

    app.get(
      `${path}/:idOrName`,
      {
        schema: {
          tags,
          summary: `Get a ${noun} with its services`,
          params: IdOrName,
          response: responses({ 200: WithServices }),
        },
      },
      async (request) => ok(await withServices(await find(request.params.idOrName))),
    );

    app.put(
      `${path}/:idOrName`,
      {
        schema: {
          tags,
          summary: `Update a ${noun}`,
          description: 'Changes the fields sent; null clears an optional one.',
          params: IdOrName,
          body: Update,
          response: responses({ 200: WithServices }),
        },
      },
      async (request) => {
        const { id } = await find(request.params.idOrName);
        const body = request.body as { name?: string } & Record<string, unknown>;
        try {
          const row = await catalog
            .updateTable(group.table as 'systems')
            .set({
              ...(body.name === undefined ? {} : { name: body.name }),
              ...toColumns(body),
              updated_at: sql`now()`,
            })
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirstOrThrow();
          return ok(await withServices(row as unknown as Row));
        } catch (error) {
          if (isUniqueViolation(error) && body.name !== undefined) throw nameTaken(body.name);
          throw error;
        }
      },
    );

    app.delete(
      `${path}/:idOrName`,
      {
        schema: {
          tags,
          summary: `Delete a ${noun}`,
          description: `Answers with the deleted ${noun}; 409 while services still belong to it, naming them.`,
          params: IdOrName,
          response: responses({ 200: Shown }),
        },
      },
      async (request) => {
        const row = await find(request.params.idOrName);
        const users = await servicesWhere(catalog, group.column, row.id);
        if (users.length > 0)
          throw conflict(
            `${group.resource} ${row.name} still has services: ${users.map((s) => s.name).join(', ')}`,
          );
        try {
          await catalog
            .deleteFrom(group.table as 'systems')
            .where('id', '=', row.id)
            .execute();
        } catch (error) {
          // A service joined it between the check and the delete (the foreign key refuses).
          if (isForeignKeyViolation(error))
            throw conflict(`${group.resource} ${row.name} still has services`);
          throw error;
        }
        return ok(group.toRecord(row));
      },
    );
  };
}

export const systemRoutes = groupRoutes<SystemRow>({
  table: 'systems',
  column: 'system_id',
  resource: 'System',
  fields: { description: Type.Optional(Nullable(Description)) },
  shown: { description: Nullable(Type.String()) },
  columns: ['description'],
  toRecord: (row) => ({ id: row.id, name: row.name, description: row.description, ...stamps(row) }),
});

export const ownerRoutes = groupRoutes<OwnerRow>({
  table: 'owners',
  column: 'owner_id',
  resource: 'Owner',
  fields: {
    email: Type.Optional(
      Nullable(Type.String({ format: 'email', maxLength: 254, description: 'Contact address' })),
    ),
    team: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  },
  shown: { email: Nullable(Type.String()), team: Nullable(Type.String()) },
  columns: ['email', 'team'],
  toRecord: (row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    team: row.team,
    ...stamps(row),
  }),
});
