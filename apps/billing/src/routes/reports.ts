import {
  Type,
  badRequest,
  ok,
  parseRange,
  responses,
  type FastifyPluginAsyncTypebox,
} from '@platform/core';
import { sql } from '@platform/db';
import type { BillingConfig } from '../config.js';
import { filteredItems, type BillingDb, type ItemFilter } from '../repository.js';
import { FilterQuery, toFilter } from './items.js';

const tags = ['billing'];
const Day = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: `${description} (YYYY-MM-DD, inclusive)`,
  });
const ReportQuery = {
  ...FilterQuery,
  from: Type.Optional(Day('First day')),
  to: Type.Optional(Day('Last day')),
  currency: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z]{3}$',
      description: 'The currency counted; the configured one by default',
    }),
  ),
};
export const BREAKDOWN_KEYS = ['provider', 'category', 'service', 'recurring', 'tag'] as const;
export const INTERVALS = ['day', 'week', 'month'] as const;
export const NONE = '(none)';
const MAX_INTERVALS = 10_000;

export const reportRoutes: FastifyPluginAsyncTypebox<{
  billing: BillingDb;
  config: BillingConfig;
}> = async (app, { billing, config }) => {
  /** The filter of a report: one currency, whole days. */
  const filterOf = (
    query: { from?: string; to?: string; currency?: string } & Record<string, unknown>,
  ) => {
    const { from, to, currency, ...rest } = query;
    return {
      filter: {
        ...toFilter(rest as Parameters<typeof toFilter>[0]),
        ...parseRange({ from, to }),
        currency: (currency ?? config.currency).toUpperCase(),
      } satisfies ItemFilter,
      from: from ?? null,
      to: to ?? null,
    };
  };

  app.get(
    '/reports/summary',
    {
      schema: {
        tags,
        summary: 'Total spending',
        querystring: Type.Object(ReportQuery),
        response: responses({
          200: Type.Object({
            totalAmount: Type.Integer({ description: 'Cents' }),
            itemCount: Type.Integer(),
            currency: Type.String(),
            from: Type.Union([Type.String(), Type.Null()]),
            to: Type.Union([Type.String(), Type.Null()]),
          }),
        }),
      },
    },
    async (request) => {
      const { filter, from, to } = filterOf(request.query);
      const row = await filteredItems(billing, filter)
        .select([
          sql<string>`coalesce(sum(amount), 0)`.as('total'),
          sql<number>`count(*)::int`.as('count'),
        ])
        .executeTakeFirstOrThrow();
      return ok({
        totalAmount: Number(row.total),
        itemCount: row.count,
        currency: filter.currency,
        from,
        to,
      });
    },
  );

  app.get(
    '/reports/breakdown',
    {
      schema: {
        tags,
        summary: 'Spending by provider, category, service, recurring or tag',
        description: `Largest first; items without the key under ${NONE}. By tag, an item counts under each of its tags, so percentages are of the sum of the rows.`,
        querystring: Type.Object({
          ...ReportQuery,
          by: Type.Enum([...BREAKDOWN_KEYS], { title: 'by' }),
        }),
        response: responses({
          200: Type.Array(
            Type.Object({
              key: Type.String(),
              amount: Type.Integer(),
              count: Type.Integer(),
              percentage: Type.Number({ description: 'Share of the total, two decimals' }),
            }),
          ),
        }),
      },
    },
    async (request) => {
      const { filter } = filterOf(request.query);
      const key =
        request.query.by === 'tag'
          ? sql<string>`coalesce(tag.value, ${NONE})`
          : request.query.by === 'recurring'
            ? sql<string>`recurring::text`
            : sql<string>`coalesce(${sql.ref(request.query.by)}, ${NONE})`;
      let query = filteredItems(billing, filter);
      if (request.query.by === 'tag')
        query = query.leftJoin(
          sql<{ value: string }>`jsonb_array_elements_text(tags)`.as('tag'),
          (join) => join.onTrue(),
        ) as typeof query;
      const rows = await query
        .select([
          key.as('key'),
          sql<string>`sum(amount)`.as('amount'),
          sql<number>`count(*)::int`.as('count'),
        ])
        .groupBy(sql`1`)
        .orderBy(sql`sum(amount)`, 'desc')
        .orderBy(sql`1`)
        .execute();
      const total = rows.reduce((sum, r) => sum + Number(r.amount), 0);
      return ok(
        rows.map((r) => ({
          key: r.key,
          amount: Number(r.amount),
          count: r.count,
          percentage: total === 0 ? 0 : Math.round((Number(r.amount) / total) * 10000) / 100,
        })),
      );
    },
  );

  app.get(
    '/reports/trend',
    {
      schema: {
        tags,
        summary: 'Spending per day, week or month',
        description:
          'Every interval from `from` to `to` (or from the first to the last item) appears, empty ones with 0. date: YYYY-MM-DD (day), the Monday of the ISO week as YYYY-MM-DD (week), YYYY-MM (month), in UTC.',
        querystring: Type.Object({
          ...ReportQuery,
          interval: Type.Enum([...INTERVALS], { default: 'day' }),
        }),
        response: responses({
          200: Type.Array(
            Type.Object({ date: Type.String(), amount: Type.Integer(), count: Type.Integer() }),
          ),
        }),
      },
    },
    async (request) => {
      const { filter } = filterOf(request.query);
      const unit = request.query.interval;
      if (filter.from && filter.to) {
        const days = (filter.to.getTime() - filter.from.getTime()) / 86_400_000;
        const intervals = days / { day: 1, week: 7, month: 28 }[unit];
        if (intervals > MAX_INTERVALS)
          throw badRequest(
            `The range has more than ${MAX_INTERVALS} ${unit}s; narrow it or take a longer interval`,
          );
      }
      const bucket = sql`date_trunc(${unit}, date at time zone 'UTC')`;
      const format = unit === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD';
      const grouped = filteredItems(billing, filter)
        .select([
          bucket.as('bucket'),
          sql`sum(amount)`.as('amount'),
          sql`count(*)::int`.as('count'),
        ])
        .groupBy(sql`1`);
      const bound = (day: string | undefined, fallback: string) =>
        day === undefined ? sql.raw(fallback) : sql`date_trunc(${unit}, ${day}::timestamp)`;
      const { rows } = await sql<{ date: string; amount: string; count: number }>`
        with grouped as (${grouped}),
        span as (
          select ${bound(request.query.from, '(select min(bucket) from grouped)')} as first,
                 ${bound(request.query.to, '(select max(bucket) from grouped)')} as last
        )
        select to_char(series.bucket, ${format}) as date,
               coalesce(grouped.amount, 0) as amount,
               coalesce(grouped.count, 0) as count
        from span, generate_series(span.first, span.last, ${`1 ${unit}`}::interval) as series(bucket)
        left join grouped on grouped.bucket = series.bucket
        order by series.bucket`.execute(billing);
      return ok(
        rows.map((r) => ({ date: r.date, amount: Number(r.amount), count: Number(r.count) })),
      );
    },
  );
};
