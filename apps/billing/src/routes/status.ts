import { Type, badRequest, ok, responses, type FastifyPluginAsyncTypebox } from '@platform/core';
import { sql } from '@platform/db';
import type { BillingConfig } from '../config.js';
import type { BillingDb } from '../repository.js';
import { Item, toItem } from './items.js';

const tags = ['billing'];

export const statusRoutes: FastifyPluginAsyncTypebox<{
  billing: BillingDb;
  config: BillingConfig;
  storageType: 'pglite' | 'postgres';
}> = async (app, { billing, config, storageType }) => {
  app.get(
    '/status',
    {
      schema: {
        tags,
        summary: 'State of the billing service',
        description: 'totalAmount counts the items in the configured currency (cents).',
        response: responses({
          200: Type.Object({
            initialized: Type.Boolean(),
            config: Type.Object({ version: Type.Integer(), currency: Type.String() }),
            totalItems: Type.Integer(),
            totalCategories: Type.Integer(),
            totalSyncJobs: Type.Integer(),
            totalAmount: Type.Integer(),
            currency: Type.String(),
            storageType: Type.Enum(['pglite', 'postgres']),
          }),
        }),
      },
    },
    async () => {
      const count = (table: 'items' | 'categories' | 'sync_jobs') =>
        billing
          .selectFrom(table)
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow();
      const [items, categories, jobs, total] = await Promise.all([
        count('items'),
        count('categories'),
        count('sync_jobs'),
        billing
          .selectFrom('items')
          .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
          .where('currency', '=', config.currency)
          .executeTakeFirstOrThrow(),
      ]);
      return ok({
        initialized: true,
        config: { version: 1, currency: config.currency },
        totalItems: items.n,
        totalCategories: categories.n,
        totalSyncJobs: jobs.n,
        totalAmount: Number(total.total),
        currency: config.currency,
        storageType,
      });
    },
  );

  app.get(
    '/search',
    {
      schema: {
        tags,
        summary: 'Search items by name, description, provider, category and tags',
        description:
          'Case-insensitive; name matches first (exact, prefix, contains), then the rest; newest first within a rank.',
        querystring: Type.Object({
          q: Type.String({ maxLength: 200, title: 'the search term' }),
          limit: Type.Integer({ minimum: 1, maximum: 1000, default: 20 }),
        }),
        response: responses({ 200: Type.Array(Item) }),
      },
    },
    async (request) => {
      const q = request.query.q.trim().toLowerCase();
      if (q === '') throw badRequest('q (the search term) must not be empty');
      const text = sql`lower(concat_ws(' ', name, description, provider, provider_ref, category, service, tags::text))`;
      const rows = await billing
        .selectFrom('items')
        .selectAll()
        .where(sql<boolean>`strpos(${text}, ${q}) > 0`)
        .orderBy(
          sql`case when lower(name) = ${q} then 0 when starts_with(lower(name), ${q}) then 1
                   when strpos(lower(name), ${q}) > 0 then 2 else 3 end`,
        )
        .orderBy('date', 'desc')
        .orderBy('id')
        .limit(request.query.limit)
        .execute();
      return ok(rows.map(toItem));
    },
  );
};
