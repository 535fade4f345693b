import {
  badRequest,
  IdOrNameParams,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  {{stamps}},
  Type,
  type Access,
  type ServiceRoutes,
} from '@platform/core';
import type { {{Name}}Config } from '../config.js';
import type { {{Name}}Database, ItemRow } from '../database.js';
import {
  countItems,
  deleteItem,
  findItem,
  insertItem,
  listItems,
  updateItem,
} from '../repositories/items.js';
import {
  ItemInputSchema,
  ItemListQuery,
  ItemSchema,
  ItemUpdateSchema,
  type Item,
} from '../schemas/items.js';

const toItem = (row: ItemRow): Item => ({
  id: row.id,
  name: row.name,
  description: row.description,
  ...{{stamps}}(row.created_at, row.updated_at),
});

// Who may (the root README's Access section): any signed-in caller reads, members write. For
// records that belong to people, add created_by/team and the `owner` rule as the catalog does.
const READ: Access = { resource: '{{name}}.item', action: 'read' };
const CREATE: Access = { resource: '{{name}}.item', action: 'create' };
const UPDATE: Access = { resource: '{{name}}.item', action: 'update' };
const DELETE: Access = { resource: '{{name}}.item', action: 'delete' };

export const itemRoutes: ServiceRoutes<{{Name}}Database, {{Name}}Config> = async (
  app,
  { db, config },
) => {
  app.get(
    '/items',
    {
      config: { access: READ },
      schema: {
        operationId: 'listItems',
        summary: 'List items by name',
        description: 'Sorted by name in any case; `name` keeps the items whose name contains it.',
        querystring: ItemListQuery,
        response: responses({ 200: Type.Array(ItemSchema) }),
      },
    },
    async (request) => {
      const { name, limit, offset } = request.query;
      const rows = await listItems(db, { name }, { limit, offset });
      return ok(rows.map(toItem));
    },
  );

  app.post(
    '/items',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createItem',
        summary: 'Create an item',
        description:
          '409 CONFLICT when an item has that name already, in any case; 400 when {{NAME}}_MAX_ITEMS are kept already.',
        body: ItemInputSchema,
        response: responses({ 201: ItemSchema }),
      },
    },
    async (request, reply) => {
      const { name, description = null } = request.body;
      if ((await countItems(db)) >= config.maxItems)
        throw badRequest(
          `The service keeps ${config.maxItems} items already, the most it may ({{NAME}}_MAX_ITEMS): delete one first`,
        );
      const row = await orConflict(
        () => insertItem(db, { id: newId(), name, description }),
        nameTaken('Item', name, 'An'),
      );
      return reply.code(201).send(ok(toItem(row)));
    },
  );

  app.get(
    '/items/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getItem',
        summary: 'Get one item',
        params: IdOrNameParams,
        response: responses({ 200: ItemSchema }),
      },
    },
    async (request) => ok(toItem(await findItem(db, request.params.idOrName))),
  );

  app.put(
    '/items/:idOrName',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateItem',
        summary: 'Update an item',
        description:
          'Changes the fields sent (null clears the description); 409 CONFLICT when another item has the new name.',
        params: IdOrNameParams,
        body: ItemUpdateSchema,
        response: responses({ 200: ItemSchema }),
      },
    },
    async (request) => {
      const { idOrName } = request.params;
      const item = await findItem(db, idOrName);
      const { name, description } = request.body;
      const row = await orConflict(
        () => updateItem(db, item.id, { name, description }),
        nameTaken('Item', name ?? item.name, 'An'),
      );
      // Deleted between the lookup and the update.
      if (!row) throw notFound('Item', idOrName);
      return ok(toItem(row));
    },
  );

  app.delete(
    '/items/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteItem',
        summary: 'Delete an item',
        description: 'Answers with the item as it was.',
        params: IdOrNameParams,
        response: responses({ 200: ItemSchema }),
      },
    },
    async (request) => {
      const { idOrName } = request.params;
      const row = await deleteItem(db, (await findItem(db, idOrName)).id);
      if (!row) throw notFound('Item', idOrName);
      return ok(toItem(row));
    },
  );
};
