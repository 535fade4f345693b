import {
  findByIdOrName,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  ownershipFor,
  PagedQuery,
  responses,
  Type,
  type Access,
} from '@platform/core';
import type { BillingRoutes } from '../domain/state.js';
import {
  deleteCategory,
  findCategoryOwnership,
  insertCategory,
  listCategories,
  updateCategory,
} from '../repositories/categories.js';
import {
  CategoryInputSchema,
  CategorySchema,
  CategoryUpdateSchema,
  toCategory,
} from '../schemas/categories.js';

export const categoryRoutes: BillingRoutes = async (app, { db, access }) => {
  // Categories are shared labels: any signed-in caller reads them; members make them; their
  // creator, their team and admins change or delete them.
  const owner: Access['owner'] = (request) =>
    findCategoryOwnership(db, (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'billing.category', action: 'read' };
  const CREATE: Access = { resource: 'billing.category', action: 'create' };
  const UPDATE: Access = { resource: 'billing.category', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'billing.category', action: 'delete', rule: 'owner', owner };
  const find = (idOrName: string) => findByIdOrName(db, 'categories', idOrName, 'Category');

  app.get(
    '/categories',
    {
      config: { access: READ },
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
      config: { access: CREATE },
      schema: {
        operationId: 'createCategory',
        summary: 'Create a category',
        body: CategoryInputSchema,
        response: responses({ 201: CategorySchema }),
      },
    },
    async (request, reply) => {
      const { name, description, color, team } = request.body;
      const { createdBy, team: owned } = await ownershipFor(request.identity, team, access);
      const columns = { id: newId(), name, description, color, created_by: createdBy, team: owned };
      const insert = () => insertCategory(db, columns);
      const row = await orConflict(insert, nameTaken('Category', name));
      return reply.code(201).send(ok(toCategory(row)));
    },
  );

  app.get(
    '/categories/:idOrName',
    {
      config: { access: READ },
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
      config: { access: UPDATE },
      schema: {
        operationId: 'updateCategory',
        summary: 'Update a category',
        description:
          'Changes the fields sent. A rename carries the items of the category along. Its creator, its team and admins may; a new team must be one the caller is in.',
        params: IdOrNameParams,
        body: CategoryUpdateSchema,
        response: responses({ 200: CategorySchema }),
      },
    },
    async (request) => {
      const current = await find(request.params.idOrName);
      const { name, description, color, team } = request.body;
      // A new team must be one the caller is in (403 otherwise); null clears it.
      if (team) await ownershipFor(request.identity, team, access);
      const update = () => updateCategory(db, current, { name, description, color, team });
      return ok(toCategory(await orConflict(update, nameTaken('Category', name ?? current.name))));
    },
  );

  app.delete(
    '/categories/:idOrName',
    {
      config: { access: DELETE },
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
