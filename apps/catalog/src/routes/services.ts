import {
  PageQuery,
  Type,
  badRequest,
  conflict,
  newId,
  notFound,
  ok,
  responses,
  type FastifyPluginAsyncTypebox,
  type Static,
  Nullable,
} from '@platform/core';
import { isUniqueViolation, selectByIdOrName, sql } from '@platform/db';
import {
  dependencyIds,
  findService,
  jsonb,
  listServices,
  type CatalogDb,
  type ServiceRow,
} from '../repository.js';
import { Description, IdOrName, Name, Stamps, stamps } from './schemas.js';

const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
  maxItems: 50,
  description: 'Up to 50 tags of 1-50 characters; repeats are dropped',
});

const ServiceInput = Type.Object({
  name: Name('service name'),
  description: Type.Optional(Nullable(Description)),
  tags: Type.Optional(Tags),
  system: Type.Optional(
    Nullable(Type.String({ description: 'Name (or id) of an existing system' })),
  ),
  owner: Type.Optional(Nullable(Type.String({ description: 'Name (or id) of an existing owner' }))),
});

const ServiceUpdate = Type.Object({
  name: Type.Optional(Name('service name')),
  description: Type.Optional(Nullable(Description)),
  tags: Type.Optional(Tags),
  system: Type.Optional(Nullable(Type.String())),
  owner: Type.Optional(Nullable(Type.String())),
  dependencies: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: 1000,
      description: 'Replaces the dependencies: ids or names of other services',
    }),
  ),
});

export const Service = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  system: Nullable(Type.String({ description: 'Name of its system' })),
  owner: Nullable(Type.String({ description: 'Name of its owner' })),
  dependencies: Type.Array(Type.String(), { description: 'Ids of the services it depends on' }),
  ...Stamps,
});

const Dependencies = Type.Array(Type.String(), {
  description: 'Ids of the services it depends on, in the order they were added',
});

export const toService = (row: ServiceRow): Static<typeof Service> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  tags: row.tags,
  system: row.system,
  owner: row.owner,
  dependencies: row.dependencies,
  ...stamps(row),
});

const unique = (tags: string[]) => [...new Set(tags)];
const tags = ['catalog'];

export const serviceRoutes: FastifyPluginAsyncTypebox<{ catalog: CatalogDb }> = async (
  app,
  { catalog },
) => {
  const resolve = async (idOrName: string) => {
    const row = await selectByIdOrName<{ id: string; name: string }>(catalog, 'services', idOrName);
    if (!row) throw notFound('Service', idOrName);
    return row;
  };
  const load = async (id: string) => {
    const row = await findService(catalog, id);
    if (!row) throw notFound('Service', id);
    return row;
  };
  /** The id of an existing system or owner; BAD_REQUEST naming it when there is none. */
  const reference = async (table: 'systems' | 'owners', idOrName: string | null | undefined) => {
    if (idOrName === undefined || idOrName === null) return idOrName;
    const row = await selectByIdOrName<{ id: string }>(catalog, table, idOrName);
    if (!row) throw badRequest(`Unknown ${table === 'systems' ? 'system' : 'owner'}: ${idOrName}`);
    return row.id;
  };
  const nameTaken = (name: string) => conflict(`A service named ${name} exists already`);

  app.get(
    '/services',
    {
      schema: {
        tags,
        summary: 'List services by name',
        querystring: Type.Object({
          system: Type.Optional(
            Type.String({ description: 'Only services of this system (name)' }),
          ),
          owner: Type.Optional(Type.String({ description: 'Only services of this owner (name)' })),
          tag: Type.Optional(Type.String({ description: 'Only services with this tag' })),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(Service) }),
      },
    },
    async (request) => {
      const { system, owner, tag, limit, offset } = request.query;
      return ok(
        (await listServices(catalog, { system, owner, tag }, { limit, offset })).map(toService),
      );
    },
  );

  app.post(
    '/services',
    {
      schema: {
        tags,
        summary: 'Register a service',
        body: ServiceInput,
        response: responses({ 201: Service }),
      },
    },
    async (request, reply) => {
      const { name, description, system, owner } = request.body;
      const id = newId();
      const inserted = await catalog
        .insertInto('services')
        .values({
          id,
          name,
          description: description ?? null,
          tags: jsonb(unique(request.body.tags ?? [])),
          system_id: (await reference('systems', system)) ?? null,
          owner_id: (await reference('owners', owner)) ?? null,
        })
        .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) throw nameTaken(name);
      return reply.code(201).send(ok(toService(await load(id))));
    },
  );

  app.get(
    '/services/:idOrName',
    {
      schema: {
        tags,
        summary: 'Get a service (by id, then by name)',
        params: IdOrName,
        response: responses({ 200: Service }),
      },
    },
    async (request) => ok(toService(await load((await resolve(request.params.idOrName)).id))),
  );

  app.put(
    '/services/:idOrName',
    {
      schema: {
        tags,
        summary: 'Update a service',
        description:
          'Changes the fields sent, any but id; null clears description, system or owner. dependencies, when sent, replaces them.',
        params: IdOrName,
        body: ServiceUpdate,
        response: responses({ 200: Service }),
      },
    },
    async (request) => {
      const { id } = await resolve(request.params.idOrName);
      const { name, description, system, owner, dependencies } = request.body;
      const changes = {
        ...(name === undefined ? {} : { name }),
        ...(description === undefined ? {} : { description }),
        ...(request.body.tags === undefined ? {} : { tags: jsonb(unique(request.body.tags)) }),
        ...(system === undefined ? {} : { system_id: await reference('systems', system) }),
        ...(owner === undefined ? {} : { owner_id: await reference('owners', owner) }),
      };
      const targets =
        dependencies === undefined
          ? undefined
          : await Promise.all(unique(dependencies).map(async (d) => (await resolve(d)).id));
      if (targets?.includes(id)) throw badRequest('A service cannot depend on itself');
      try {
        await catalog.transaction().execute(async (trx) => {
          await trx
            .updateTable('services')
            .set({ ...changes, updated_at: sql`now()` })
            .where('id', '=', id)
            .execute();
          if (targets === undefined) return;
          await trx.deleteFrom('dependencies').where('service_id', '=', id).execute();
          if (targets.length > 0)
            await trx
              .insertInto('dependencies')
              .values(targets.map((target) => ({ service_id: id, depends_on_id: target })))
              .execute();
        });
      } catch (error) {
        if (isUniqueViolation(error) && name !== undefined) throw nameTaken(name);
        throw error;
      }
      return ok(toService(await load(id)));
    },
  );

  app.delete(
    '/services/:idOrName',
    {
      schema: {
        tags,
        summary: 'Remove a service',
        description:
          'Answers with the removed service. It is also removed from the dependencies of every other service.',
        params: IdOrName,
        response: responses({ 200: Service }),
      },
    },
    async (request) => {
      const row = await load((await resolve(request.params.idOrName)).id);
      await catalog.deleteFrom('services').where('id', '=', row.id).execute();
      return ok(toService(row));
    },
  );

  app.post(
    '/services/:idOrName/dependencies',
    {
      schema: {
        tags,
        summary: 'Add a dependency',
        description:
          'The service depends on dependsOn from now on. Adding one twice changes nothing. Answers with the updated dependencies.',
        params: IdOrName,
        body: Type.Object({
          dependsOn: Type.String({
            minLength: 1,
            title: 'dependsOn',
            description: 'Id or name of another service',
          }),
        }),
        response: responses({ 200: Dependencies }),
      },
    },
    async (request) => {
      const service = await resolve(request.params.idOrName);
      const target = await resolve(request.body.dependsOn);
      if (service.id === target.id) throw badRequest('A service cannot depend on itself');
      await catalog
        .insertInto('dependencies')
        .values({ service_id: service.id, depends_on_id: target.id })
        .onConflict((oc) => oc.columns(['service_id', 'depends_on_id']).doNothing())
        .execute();
      return ok(await dependencyIds(catalog, service.id));
    },
  );

  app.delete(
    '/services/:idOrName/dependencies/:dependsOn',
    {
      schema: {
        tags,
        summary: 'Remove a dependency',
        description:
          'Answers with the updated dependencies; 404 when there was no such dependency.',
        params: Type.Object({ idOrName: Type.String(), dependsOn: Type.String() }),
        response: responses({ 200: Dependencies }),
      },
    },
    async (request) => {
      const service = await resolve(request.params.idOrName);
      const target = await resolve(request.params.dependsOn);
      const removed = await catalog
        .deleteFrom('dependencies')
        .where('service_id', '=', service.id)
        .where('depends_on_id', '=', target.id)
        .executeTakeFirst();
      if (removed.numDeletedRows === 0n)
        throw notFound('Dependency', `${service.name} does not depend on ${target.name}`);
      return ok(await dependencyIds(catalog, service.id));
    },
  );
};
