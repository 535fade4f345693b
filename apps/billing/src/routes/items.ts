import {
  Instant,
  IsoTimestamp,
  Nullable,
  PageQuery,
  Type,
  badRequest,
  conflict,
  newId,
  notFound,
  ok,
  parseInstant,
  parseRange,
  responses,
  type FastifyPluginAsyncTypebox,
  type Static,
} from '@platform/core';
import { isUniqueViolation, sql } from '@platform/db';
import type { BillingConfig } from '../config.js';
import {
  filteredItems,
  jsonb,
  type BillingDb,
  type ItemFilter,
  type ItemRow,
} from '../repository.js';

export const PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
const tags = ['billing'];
const Label = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

export const ItemFields = {
  name: Type.String({ minLength: 1, maxLength: 200, title: 'name' }),
  amount: Type.Integer({
    minimum: -Number.MAX_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
    title: 'amount',
    description: 'Integer number of cents (negative for a credit)',
  }),
  currency: Type.String({
    pattern: '^[A-Za-z]{3}$',
    description: 'ISO 4217 code; the configured currency by default',
  }),
  provider: Nullable(Label('Who bills it, e.g. openai')),
  providerRef: Nullable(Label("The provider's id of the charge; unique per provider")),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50 }),
  description: Nullable(Type.String({ maxLength: 2000 })),
  recurring: Type.Boolean(),
  period: Nullable(Type.Enum([...PERIODS], { description: 'Required when recurring' })),
  date: Instant('When it was spent; now by default'),
  category: Nullable(Label('Category name')),
  service: Nullable(Label('The platform service it is for')),
  stageApp: Nullable(Label('The sandbox app it is for')),
  author: Nullable(Label('Who spent it')),
};

const F = ItemFields;
const ItemInput = Type.Object({
  name: F.name,
  amount: F.amount,
  currency: Type.Optional(F.currency),
  provider: Type.Optional(F.provider),
  providerRef: Type.Optional(F.providerRef),
  tags: Type.Optional(F.tags),
  description: Type.Optional(F.description),
  recurring: Type.Optional(F.recurring),
  period: Type.Optional(F.period),
  date: Type.Optional(F.date),
  category: Type.Optional(F.category),
  service: Type.Optional(F.service),
  stageApp: Type.Optional(F.stageApp),
  author: Type.Optional(F.author),
});
const ItemUpdate = Type.Partial(ItemInput);

export const Item = Type.Object({
  id: Type.String(),
  name: Type.String(),
  amount: Type.Integer(),
  currency: Type.String(),
  provider: Nullable(Type.String()),
  providerRef: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  recurring: Type.Boolean(),
  period: Nullable(Type.String()),
  date: IsoTimestamp,
  category: Nullable(Type.String()),
  service: Nullable(Type.String()),
  stageApp: Nullable(Type.String()),
  author: Nullable(Type.String()),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});

export const toItem = (row: ItemRow): Static<typeof Item> => ({
  id: row.id,
  name: row.name,
  amount: Number(row.amount),
  currency: row.currency,
  provider: row.provider,
  providerRef: row.provider_ref,
  tags: row.tags,
  description: row.description,
  recurring: row.recurring,
  period: row.period,
  date: row.date.toISOString(),
  category: row.category,
  service: row.service,
  stageApp: row.stage_app,
  author: row.author,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** The query filters shared by lists and reports. */
export const FilterQuery = {
  category: Type.Optional(Type.String()),
  provider: Type.Optional(Type.String()),
  service: Type.Optional(Type.String()),
  stageApp: Type.Optional(Type.String()),
  author: Type.Optional(Type.String()),
  recurring: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Type.String({ description: 'Comma-separated: items with all of them' })),
};

export const toFilter = (query: Static<Type.TObject<typeof FilterQuery>>): ItemFilter => ({
  ...query,
  tags: query.tags
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean),
});

type Input = Static<typeof ItemUpdate>;

/** Columns of an item from (part of) its input, checked as a whole against `current`. */
export function itemColumns(input: Input, config: BillingConfig, current?: ItemRow) {
  const recurring = input.recurring ?? current?.recurring ?? false;
  const period = input.period !== undefined ? input.period : (current?.period ?? null);
  if (recurring && !period) throw badRequest('period is required when recurring is true');
  const columns = {
    name: input.name,
    amount: input.amount,
    currency: input.currency?.toUpperCase() ?? (current ? undefined : config.currency),
    provider: input.provider,
    provider_ref: input.providerRef,
    tags: input.tags && jsonb([...new Set(input.tags)]),
    description: input.description,
    recurring: input.recurring ?? (current ? undefined : false),
    period: input.period,
    date:
      input.date === undefined
        ? current
          ? undefined
          : new Date()
        : parseInstant(input.date, 'date', 'from'),
    category: input.category,
    service: input.service,
    stage_app: input.stageApp,
    author: input.author,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

const refTaken = (provider: string | null | undefined, ref: string | null | undefined) =>
  conflict(`An item from ${provider} with providerRef ${ref} exists already`);

export const itemRoutes: FastifyPluginAsyncTypebox<{
  billing: BillingDb;
  config: BillingConfig;
}> = async (app, { billing, config }) => {
  const find = async (id: string) => {
    const row = await billing
      .selectFrom('items')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Item', id);
    return row;
  };

  app.get(
    '/items',
    {
      schema: {
        tags,
        summary: 'List items, newest first',
        querystring: Type.Object({
          ...FilterQuery,
          from: Type.Optional(Instant('Items on or after')),
          to: Type.Optional(Instant('Items on or before')),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(Item) }),
      },
    },
    async (request) => {
      const { from, to, limit, offset, ...filters } = request.query;
      const rows = await filteredItems(billing, {
        ...toFilter(filters),
        ...parseRange({ from, to }),
      })
        .selectAll()
        .orderBy('date', 'desc')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      return ok(rows.map(toItem));
    },
  );

  app.post(
    '/items',
    {
      schema: {
        tags,
        summary: 'Record a spending item',
        body: ItemInput,
        response: responses({ 201: Item }),
      },
    },
    async (request, reply) => {
      try {
        const row = await billing
          .insertInto('items')
          .values({ id: newId(12), ...itemColumns(request.body, config) } as never)
          .returningAll()
          .executeTakeFirstOrThrow();
        return reply.code(201).send(ok(toItem(row)));
      } catch (error) {
        if (isUniqueViolation(error))
          throw refTaken(request.body.provider, request.body.providerRef);
        throw error;
      }
    },
  );

  app.get(
    '/items/by-provider-ref',
    {
      schema: {
        tags,
        summary: "Find an item by its provider's reference",
        querystring: Type.Object({
          provider: Type.String({ title: 'provider' }),
          providerRef: Type.String({ title: 'providerRef' }),
        }),
        response: responses({ 200: Item }),
      },
    },
    async (request) => {
      const { provider, providerRef } = request.query;
      const row = await billing
        .selectFrom('items')
        .selectAll()
        .where('provider', '=', provider)
        .where('provider_ref', '=', providerRef)
        .executeTakeFirst();
      if (!row) throw notFound('Item', `${provider}/${providerRef}`);
      return ok(toItem(row));
    },
  );

  app.get(
    '/items/:id',
    {
      schema: {
        tags,
        summary: 'Get an item',
        params: Type.Object({ id: Type.String() }),
        response: responses({ 200: Item }),
      },
    },
    async (request) => ok(toItem(await find(request.params.id))),
  );

  app.put(
    '/items/:id',
    {
      schema: {
        tags,
        summary: 'Update an item',
        description:
          'Changes the fields sent, checked as a create is; null clears an optional one.',
        params: Type.Object({ id: Type.String() }),
        body: ItemUpdate,
        response: responses({ 200: Item }),
      },
    },
    async (request) => {
      const current = await find(request.params.id);
      try {
        const row = await billing
          .updateTable('items')
          .set({ ...itemColumns(request.body, config, current), updated_at: sql`now()` } as never)
          .where('id', '=', current.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return ok(toItem(row));
      } catch (error) {
        if (isUniqueViolation(error))
          throw refTaken(
            request.body.provider ?? current.provider,
            request.body.providerRef ?? current.provider_ref,
          );
        throw error;
      }
    },
  );

  app.delete(
    '/items/:id',
    {
      schema: {
        tags,
        summary: 'Delete an item',
        params: Type.Object({ id: Type.String() }),
        response: responses({ 200: Item }),
      },
    },
    async (request) => {
      const row = await billing
        .deleteFrom('items')
        .where('id', '=', request.params.id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw notFound('Item', request.params.id);
      return ok(toItem(row));
    },
  );
};
