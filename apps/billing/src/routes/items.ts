import { notFound, ok, orConflict, responses, Type } from '@platform/core';
import type { BillingRoutes } from '../database.js';
import { deleteItem, findItem, insertItem, listItems, updateItem } from '../repositories/items.js';
import {
  checkPeriod,
  columnsOf,
  ItemInputSchema,
  ItemListQuery,
  ItemParams,
  ItemSchema,
  ItemUpdateSchema,
  newItem,
  ProviderRefQuery,
  toItem,
  toItemFilter,
} from '../schemas/items.js';

const refTaken = (provider: string | null | undefined, ref: string | null | undefined) =>
  `An item from ${provider} with providerRef ${ref} exists already`;

export const itemRoutes: BillingRoutes = async (app, { db, config }) => {
  const find = async (id: string) => {
    const row = await findItem(db, { id });
    if (!row) throw notFound('Item', id);
    return row;
  };

  app.get(
    '/items',
    {
      schema: {
        operationId: 'listItems',
        summary: 'List items, newest first',
        querystring: ItemListQuery,
        response: responses({ 200: Type.Array(ItemSchema) }),
      },
    },
    async ({ query }) => ok((await listItems(db, toItemFilter(query), query)).map(toItem)),
  );

  app.post(
    '/items',
    {
      schema: {
        operationId: 'createItem',
        summary: 'Record a spending item',
        body: ItemInputSchema,
        response: responses({ 201: ItemSchema }),
      },
    },
    async (request, reply) => {
      const { provider, providerRef } = request.body;
      const insert = () => insertItem(db, newItem(request.body, config.currency));
      const row = await orConflict(insert, refTaken(provider, providerRef));
      return reply.code(201).send(ok(toItem(row)));
    },
  );

  app.get(
    '/items/by-provider-ref',
    {
      schema: {
        operationId: 'getItemByProviderRef',
        summary: "Find an item by its provider's reference",
        querystring: ProviderRefQuery,
        response: responses({ 200: ItemSchema }),
      },
    },
    async (request) => {
      const { provider, providerRef } = request.query;
      const row = await findItem(db, { provider, provider_ref: providerRef });
      if (!row) throw notFound('Item', `${provider}/${providerRef}`);
      return ok(toItem(row));
    },
  );

  app.get(
    '/items/:id',
    {
      schema: {
        operationId: 'getItem',
        summary: 'Get an item',
        params: ItemParams,
        response: responses({ 200: ItemSchema }),
      },
    },
    async (request) => ok(toItem(await find(request.params.id))),
  );

  app.put(
    '/items/:id',
    {
      schema: {
        operationId: 'updateItem',
        summary: 'Update an item',
        description:
          'Changes the fields sent, checked as a create is; null clears an optional one.',
        params: ItemParams,
        body: ItemUpdateSchema,
        response: responses({ 200: ItemSchema }),
      },
    },
    async (request) => {
      const current = await find(request.params.id);
      const { provider, providerRef, recurring, period } = request.body;
      checkPeriod(recurring ?? current.recurring, period !== undefined ? period : current.period);
      const row = await orConflict(
        () => updateItem(db, current.id, columnsOf(request.body)),
        refTaken(provider ?? current.provider, providerRef ?? current.provider_ref),
      );
      if (!row) throw notFound('Item', current.id);
      return ok(toItem(row));
    },
  );

  app.delete(
    '/items/:id',
    {
      schema: {
        operationId: 'deleteItem',
        summary: 'Delete an item',
        description: 'Answers with the deleted item.',
        params: ItemParams,
        response: responses({ 200: ItemSchema }),
      },
    },
    async (request) => {
      const row = await deleteItem(db, request.params.id);
      if (!row) throw notFound('Item', request.params.id);
      return ok(toItem(row));
    },
  );
};
