import { Nullable, Type } from '@platform/core';
import { BREAKDOWN_KEYS, INTERVALS, NONE } from '../repositories/reports.js';
import { ItemFilterQuery } from './items.js';

const Day = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: `${description} (YYYY-MM-DD, inclusive)`,
  });

/** The query of every report: the item filters, whole days and one currency. */
export const ReportQueryFields = {
  ...ItemFilterQuery,
  from: Type.Optional(Day('First day')),
  to: Type.Optional(Day('Last day')),
  currency: Type.Optional(
    Type.String({
      pattern: '^[A-Za-z]{3}$',
      description: 'The currency counted; the configured one by default',
    }),
  ),
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
