import { Nullable, Type } from '@platform/core';
import { BREAKDOWN_KEYS, INTERVALS, NONE } from '../repositories/reports.js';
import { Currency, Day, ItemFilterQuery } from './items.js';

/** The query of every report: the item filters, whole days and one currency. */
export const ReportQueryFields = {
  ...ItemFilterQuery,
  from: Type.Optional(Day('First day (YYYY-MM-DD, inclusive)')),
  to: Type.Optional(Day('Last day (YYYY-MM-DD, inclusive)')),
  currency: Type.Optional(Currency('The currency counted; the configured one by default')),
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
  key: Type.String({ description: `The key's value; ${NONE} for items without it` }),
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
});
