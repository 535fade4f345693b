import { Nullable, PageQuery, Type } from '@platform/core';
import { BREAKDOWN_KEYS, INTERVALS, NONE, UNMATCHED } from '../repositories/reports.js';
import { Currency, Day, ItemFilterQuery } from './items.js';
import { CatalogSnapshotSchema } from './owners.js';

/** Filters by the catalog service items resolve to (allocations applied). */
const CatalogFilterFields = {
  catalogService: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Spend of this catalog service (id or name, any case), allocations applied',
    }),
  ),
  system: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Spend of the services of this catalog system (id or name)',
    }),
  ),
  owner: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Spend of the services of this catalog owner (name, any case)',
    }),
  ),
};

/** The query of every report: the item filters, whole days and one currency. */
export const ReportQueryFields = {
  ...ItemFilterQuery,
  from: Type.Optional(Day('First day (YYYY-MM-DD, inclusive)')),
  to: Type.Optional(Day('Last day (YYYY-MM-DD, inclusive)')),
  currency: Type.Optional(Currency('The currency counted; the configured one by default')),
  ...CatalogFilterFields,
};

export const SummaryQuery = Type.Object(ReportQueryFields);

export const SummarySchema = Type.Object({
  totalAmount: Type.Integer({ description: 'Cents' }),
  itemCount: Type.Integer(),
  currency: Type.String(),
  from: Nullable(Type.String()),
  to: Nullable(Type.String()),
});

export const BreakdownQuery = Type.Object({
  ...ReportQueryFields,
  by: Type.Enum([...BREAKDOWN_KEYS], { title: 'by' }),
});

export const BreakdownRowSchema = Type.Object({
  key: Type.String({
    description: `The key's value; ${NONE} for items without it; by catalogService, system and owner, ${UNMATCHED} for spend that resolves to no catalog service`,
  }),
  name: Type.Optional(
    Nullable(Type.String({ description: 'By catalogService and system: its name in the catalog' })),
  ),
  amount: Type.Integer({ description: 'Cents' }),
  count: Type.Integer(),
  percentage: Type.Number({ description: 'Share of the total, two decimals' }),
});

export const TrendQuery = Type.Object({
  ...ReportQueryFields,
  interval: Type.Enum([...INTERVALS], { default: 'day' }),
});

export const TrendPointSchema = Type.Object({
  date: Type.String(),
  amount: Type.Integer({ description: 'Cents' }),
  count: Type.Integer(),
});

export const StatusSchema = Type.Object({
  initialized: Type.Boolean(),
  config: Type.Object({ version: Type.Integer(), currency: Type.String() }),
  totalItems: Type.Integer(),
  totalCategories: Type.Integer(),
  totalSyncJobs: Type.Integer(),
  totalAmount: Type.Integer({ description: 'Cents, of the items in the configured currency' }),
  currency: Type.String(),
  storageType: Type.Enum(['pglite', 'postgres']),
  catalog: CatalogSnapshotSchema,
});

export const UnmatchedQuery = Type.Object({
  ...ItemFilterQuery,
  from: ReportQueryFields.from,
  to: ReportQueryFields.to,
  currency: ReportQueryFields.currency,
  ...PageQuery,
});

export const UnmatchedRowSchema = Type.Object({
  provider: Nullable(Type.String()),
  service: Nullable(Type.String({ description: 'The raw service of the items' })),
  amount: Type.Integer({ description: 'Cents: the exact sum rounded' }),
  exactAmount: Type.String({ description: 'The exact sum in cents, as decimal text' }),
  count: Type.Integer(),
  firstDate: Type.String(),
  lastDate: Type.String(),
});
