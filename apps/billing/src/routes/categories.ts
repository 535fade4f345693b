import {
  findByIdOrName,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  PagedQuery,
  responses,
  stampsAt,
  Type,
} from '@platform/core';
import type { BillingRoutes, CategoryRow } from '../database.js';
import {
  deleteCategory,
  insertCategory,
  listCategories,
  updateCategory,
} from '../repositories/categories.js';
import {
  CategoryInputSchema,
  CategorySchema,
  CategoryUpdateSchema,
  type Category,
} from '../schemas/categories.js';

const toCategory = (row: CategoryRow): Category => ({
  ...row,
  color: row.color?.toLowerCase() ?? null,
  ...stampsAt(row.created_at, row.updated_at),
});

export const categoryRoutes: BillingRoutes = async (app, { db }) => {
  const find = (idOrName: string) => findByIdOrName(db, 'categories', idOrName, 'Category');

  app.get(
    '/categories',
    {
      schema: {
        operationId: 'listCategories',
        summary: 'List categories by name',
        querystring: PagedQuery({}),
        response: responses({ 200: Type.Array(CategorySchema) }),
      },
    },
    async (request) => ok((await listCategories(db, request.query)).map(toCategory)),
  );

  app.post(
    '/categories',
    {
      schema: {
        operationId: 'createCategory',
        summary: 'Create a category',
        body: CategoryInputSchema,
        response: responses({ 201: CategorySchema }),
      },
    },
    async (request, reply) => {
      const { name, description, color } = request.body;
      const insert = () => insertCategory(db, { id: newId(), name, description, color });
      const row = await orConflict(insert, nameTaken('Category', name));
      return reply.code(201).send(ok(toCategory(row)));
    },
  );

  app.get(
    '/categories/:idOrName',
    {
      schema: {
        operationId: 'getCategory',
        summary: 'Get a category',
        params: IdOrNameParams,
        response: responses({ 200: CategorySchema }),
      },
    },
    async (request) => ok(toCategory(await find(request.params.idOrName))),
  );

  app.put(
    '/categories/:idOrName',
    {
      schema: {
        operationId: 'updateCategory',
        summary: 'Update a category',
        description: 'Changes the fields sent. A rename carries the items of the category along.',
        params: IdOrNameParams,
        body: CategoryUpdateSchema,
        response: responses({ 200: CategorySchema }),
      },
    },
    async (request) => {
      const current = await find(request.params.idOrName);
      const { name, description, color } = request.body;
      const update = () => updateCategory(db, current, { name, description, color });
      return ok(toCategory(await orConflict(update, nameTaken('Category', name ?? current.name))));
    },
  );

  app.delete(
    '/categories/:idOrName',
    {
      schema: {
        operationId: 'deleteCategory',
        summary: 'Delete a category',
        description: 'Answers with the deleted category. Items keep their category name.',
        params: IdOrNameParams,
        response: responses({ 200: CategorySchema }),
      },
    },
    async (request) => {
      const row = await find(request.params.idOrName);
      await deleteCategory(db, row.id);
      return ok(toCategory(row));
    },
  );
};
