import {
  findByIdOrName,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  PagedQuery,
  responses,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import type { BillingConfig } from '../config.js';
import type { BillingDatabase, CategoryRow } from '../database.js';
import { toCategory } from '../mappers.js';
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
} from '../schemas/categories.js';

export const categoryRoutes: ServiceRoutes<BillingDatabase, BillingConfig> = async (
  app,
  { db },
) => {
  const find = (idOrName: string) =>
    findByIdOrName<CategoryRow>(db, 'categories', idOrName, 'Category');

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
      const row = await orConflict(
        insertCategory(db, {
          id: newId(),
          name,
          description: description ?? null,
          color: color ?? null,
        }),
        nameTaken('Category', name),
      );
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
      const row = await orConflict(
        updateCategory(db, current, { name, description, color }),
        nameTaken('Category', name ?? current.name),
      );
      return ok(toCategory(row));
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
