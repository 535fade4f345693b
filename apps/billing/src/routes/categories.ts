import {
  IsoTimestamp,
  Nullable,
  PageQuery,
  Type,
  conflict,
  newId,
  notFound,
  ok,
  responses,
  type FastifyPluginAsyncTypebox,
  type Static,
} from '@platform/core';
import { isUniqueViolation, selectByIdOrName, sql } from '@platform/db';
import type { BillingDb, CategoryRow } from '../repository.js';

const tags = ['billing'];

const Fields = {
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^\\S(.*\\S)?$',
    title: 'category name',
  }),
  description: Nullable(Type.String({ maxLength: 2000 })),
  color: Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#rrggbb' })),
};
const CategoryInput = Type.Object({
  name: Fields.name,
  description: Type.Optional(Fields.description),
  color: Type.Optional(Fields.color),
});

const Category = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  color: Nullable(Type.String()),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});

const toCategory = (row: CategoryRow): Static<typeof Category> => ({
  id: row.id,
  name: row.name,
  description: row.description,
  color: row.color?.toLowerCase() ?? null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const taken = (name: string) => conflict(`A category named ${name} exists already`);

export const categoryRoutes: FastifyPluginAsyncTypebox<{ billing: BillingDb }> = async (
  app,
  { billing },
) => {
  const byId = async (id: string) => {
    const row = await billing
      .selectFrom('categories')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Category', id);
    return row;
  };

  app.get(
    '/categories',
    {
      schema: {
        tags,
        summary: 'List categories by name',
        querystring: Type.Object({ ...PageQuery }),
        response: responses({ 200: Type.Array(Category) }),
      },
    },
    async (request) => {
      const rows = await billing
        .selectFrom('categories')
        .selectAll()
        .orderBy(sql`lower(name)`)
        .limit(request.query.limit)
        .offset(request.query.offset)
        .execute();
      return ok(rows.map(toCategory));
    },
  );

  app.post(
    '/categories',
    {
      schema: {
        tags,
        summary: 'Create a category',
        body: CategoryInput,
        response: responses({ 201: Category }),
      },
    },
    async (request, reply) => {
      const { name, description, color } = request.body;
      const row = await billing
        .insertInto('categories')
        .values({ id: newId(), name, description: description ?? null, color: color ?? null })
        .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!row) throw taken(name);
      return reply.code(201).send(ok(toCategory(row)));
    },
  );

  app.get(
    '/categories/:idOrName',
    {
      schema: {
        tags,
        summary: 'Get a category',
        params: Type.Object({ idOrName: Type.String() }),
        response: responses({ 200: Category }),
      },
    },
    async (request) => {
      const row = await selectByIdOrName<CategoryRow>(
        billing,
        'categories',
        request.params.idOrName,
      );
      if (!row) throw notFound('Category', request.params.idOrName);
      return ok(toCategory(row));
    },
  );

  app.put(
    '/categories/:id',
    {
      schema: {
        tags,
        summary: 'Update a category',
        description: 'Changes the fields sent. A rename carries the items of the category along.',
        params: Type.Object({ id: Type.String() }),
        body: Type.Partial(CategoryInput),
        response: responses({ 200: Category }),
      },
    },
    async (request) => {
      const current = await byId(request.params.id);
      const { name, description, color } = request.body;
      try {
        const row = await billing.transaction().execute(async (trx) => {
          const updated = await trx
            .updateTable('categories')
            .set({
              ...(name === undefined ? {} : { name }),
              ...(description === undefined ? {} : { description }),
              ...(color === undefined ? {} : { color }),
              updated_at: sql`now()`,
            })
            .where('id', '=', current.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          if (name !== undefined && name !== current.name)
            await trx
              .updateTable('items')
              .set({ category: name })
              .where('category', '=', current.name)
              .execute();
          return updated;
        });
        return ok(toCategory(row));
      } catch (error) {
        if (isUniqueViolation(error) && name !== undefined) throw taken(name);
        throw error;
      }
    },
  );

  app.delete(
    '/categories/:id',
    {
      schema: {
        tags,
        summary: 'Delete a category',
        description: 'Answers with the deleted category. Items keep their category name.',
        params: Type.Object({ id: Type.String() }),
        response: responses({ 200: Category }),
      },
    },
    async (request) => {
      const row = await byId(request.params.id);
      await billing.deleteFrom('categories').where('id', '=', row.id).execute();
      return ok(toCategory(row));
    },
  );
};
