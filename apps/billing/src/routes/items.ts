import {
  notFound,
  ok,
  orConflict,
  ownershipFor,
  responses,
  Type,
  type Access,
} from '@platform/core';
import type { BillingRoutes } from '../domain/state.js';
import {
  deleteItem,
  findItem,
  findItemOwnership,
  insertItem,
  listItems,
  updateItem,
} from '../repositories/items.js';
import { writeResolved } from '../repositories/owners-resolve.js';
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

export const itemRoutes: BillingRoutes = async (app, { db, config, access, state }) => {
  // Budgets are evaluated once spend settles after a change here (domain/budgets-alerts.ts).
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 300) state.alerts.spendChanged();
  });
  // Spending is shared knowledge: any signed-in caller reads it; members record items; their
  // creator, their team and admins change or delete them.
  const owner: Access['owner'] = (request) =>
    findItemOwnership(db, (request.params as { id?: unknown }).id);
  const READ: Access = { resource: 'billing.item', action: 'read' };
  const CREATE: Access = { resource: 'billing.item', action: 'create' };
  const UPDATE: Access = { resource: 'billing.item', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'billing.item', action: 'delete', rule: 'owner', owner };

  const find = async (id: string) => {
    const row = await findItem(db, { id });
    if (!row) throw notFound('Item', id);
    return row;
  };

  app.get(
    '/items',
    {
      config: { access: READ },
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
      config: { access: CREATE },
      schema: {
        operationId: 'createItem',
        summary: 'Record a spending item',
        body: ItemInputSchema,
        response: responses({ 201: ItemSchema }),
      },
    },
    async (request, reply) => {
      const { provider, providerRef, team } = request.body;
      const owned = await ownershipFor(request.identity, team, access);
      // Written and resolved to its catalog service in one transaction (owners-resolve.ts).
      const item = newItem(request.body, config.currency, owned);
      const insert = () => writeResolved(db, (trx) => insertItem(trx, item));
      const row = await orConflict(insert, refTaken(provider, providerRef));
      return reply.code(201).send(ok(toItem(row)));
    },
  );

  app.get(
    '/items/by-provider-ref',
    {
      config: { access: READ },
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
      config: { access: READ },
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
      config: { access: UPDATE },
      schema: {
        operationId: 'updateItem',
        summary: 'Update an item',
        description:
          'Changes the fields sent, checked as a create is; null clears an optional one. Its creator, its team and admins may; a new team must be one the caller is in.',
        params: ItemParams,
        body: ItemUpdateSchema,
        response: responses({ 200: ItemSchema }),
      },
    },
    async (request) => {
      const current = await find(request.params.id);
      const { provider, providerRef, recurring, period, team } = request.body;
      checkPeriod(recurring ?? current.recurring, period !== undefined ? period : current.period);
      // A new team must be one the caller is in (403 otherwise); null clears it.
      if (team) await ownershipFor(request.identity, team, access);
      const changes = { ...columnsOf(request.body), team };
      const row = await orConflict(
        () => writeResolved(db, (trx) => updateItem(trx, current.id, changes)),
        refTaken(provider ?? current.provider, providerRef ?? current.provider_ref),
      );
      if (!row) throw notFound('Item', current.id);
      return ok(toItem(row));
    },
  );

  app.delete(
    '/items/:id',
    {
      config: { access: DELETE },
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
