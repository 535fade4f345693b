import { Instant, Nullable, Type, type Static } from '@platform/core';

const EventName = (description: string) =>
  Type.String({ minLength: 1, maxLength: 200, description });

const Zone = Type.String({
  minLength: 1,
  maxLength: 64,
  default: 'UTC',
  description:
    'Time zone of the periods and of bare dates in from/to: an IANA name (Europe/Berlin) or an offset (+05:30); default UTC',
  examples: ['Europe/Berlin', '+05:30'],
});

const Range = {
  from: Type.Optional(
    Instant('Start of the range (a date is the start of that day in tz); default: see the route'),
  ),
  to: Type.Optional(
    Instant('End of the range, inclusive (a date is the whole day in tz); default now'),
  ),
  tz: Zone,
};

const Breakdown = {
  breakdown: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'An event property to split the answer by (its value as text; absent is null)',
    }),
  ),
  breakdownLimit: Type.Integer({
    minimum: 1,
    maximum: 50,
    default: 10,
    description: 'How many breakdown values, the largest first (1-50, default 10)',
  }),
};

export const TrendsQuery = Type.Object({
  event: EventName('The event to count'),
  interval: Type.Union(
    [Type.Literal('hour'), Type.Literal('day'), Type.Literal('week'), Type.Literal('month')],
    {
      default: 'day',
      description: 'Period length; weeks start on Monday (ISO); default day',
    },
  ),
  math: Type.Union([Type.Literal('total'), Type.Literal('unique_users')], {
    default: 'total',
    description:
      'total: events; unique_users: distinct persons (distinct ids merged by identify and alias count once)',
  }),
  ...Range,
  ...Breakdown,
});
export type TrendsQuery = Static<typeof TrendsQuery>;

const Period = Type.String({
  description:
    'Start of the period, as local time in tz with its offset (2026-03-29T00:00:00+01:00)',
});

export const TrendSeriesSchema = Type.Object({
  breakdown: Nullable(Type.String(), {
    description: 'The breakdown value (null: the property is absent, or no breakdown)',
  }),
  counts: Type.Array(Type.Integer(), { description: 'One count per period, 0 when empty' }),
  total: Type.Integer({
    description: 'Events in the range (total), or distinct persons in the range (unique_users)',
  }),
});

export const TrendsSchema = Type.Object({
  event: Type.String(),
  interval: Type.String(),
  math: Type.String(),
  tz: Type.String(),
  from: Type.String({ description: 'Start of the range, as an ISO instant' }),
  to: Type.String({ description: 'End of the range (inclusive), as an ISO instant' }),
  periods: Type.Array(Period),
  series: Type.Array(TrendSeriesSchema, {
    description: 'One series without breakdown; with one, a series per value, largest total first',
  }),
});
export type Trends = Static<typeof TrendsSchema>;

export const MAX_STEPS = 10;
export const DEFAULT_WINDOW = 14 * 86_400;

export const FunnelsQuery = Type.Object({
  steps: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: `2 to ${MAX_STEPS} event names, comma-separated, in order`,
    examples: ['$pageview,signup,purchase'],
  }),
  window: Type.Integer({
    minimum: 1,
    maximum: 365 * 86_400,
    default: DEFAULT_WINDOW,
    description:
      'Conversion window in seconds: every step within this long of the first (default 14 days)',
  }),
  ...Range,
  ...Breakdown,
});
export type FunnelsQuery = Static<typeof FunnelsQuery>;

export const FunnelStepSchema = Type.Object({
  step: Type.Integer({ description: '1 for the first' }),
  event: Type.String(),
  count: Type.Integer({ description: 'Persons who reached this step' }),
  conversion: Type.Number({
    description: 'count over the first step’s count (0 to 1; 0 when none)',
  }),
  stepConversion: Type.Number({
    description: 'count over the previous step’s count (0 to 1; 1 for the first step with persons)',
  }),
});

export const FunnelSchema = Type.Object({
  breakdown: Nullable(Type.String(), {
    description: 'The value of the property on the person’s first first-step event (null: none)',
  }),
  steps: Type.Array(FunnelStepSchema),
});

export const FunnelsSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  tz: Type.String(),
  window: Type.Integer(),
  steps: Type.Array(FunnelStepSchema, { description: 'Every person in the range' }),
  breakdowns: Type.Array(FunnelSchema, {
    description: 'With breakdown: the funnel per value, most persons first; else empty',
  }),
});
export type Funnels = Static<typeof FunnelsSchema>;
export type FunnelStep = Static<typeof FunnelStepSchema>;

export const RetentionQuery = Type.Object({
  event: EventName('The event whose first occurrence puts a person in a cohort'),
  returnEvent: Type.Optional(EventName('The event that counts as returning; default event')),
  interval: Type.Union([Type.Literal('day'), Type.Literal('week')], {
    default: 'day',
    description: 'Cohort and period length; weeks start on Monday (ISO); default day',
  }),
  ...Range,
});
export type RetentionQuery = Static<typeof RetentionQuery>;

export const CohortSchema = Type.Object({
  start: Period,
  size: Type.Integer({ description: 'Persons whose first event fell in this period' }),
  periods: Type.Array(
    Type.Object({
      count: Type.Integer({ description: 'Persons of the cohort who returned in this period' }),
      share: Type.Number({ description: 'count over size (0 to 1; 0 for an empty cohort)' }),
    }),
    {
      description: 'Period 0 (the cohort’s own: everyone), 1, 2, ... up to the end of the range',
    },
  ),
});

export const RetentionSchema = Type.Object({
  event: Type.String(),
  returnEvent: Type.String(),
  interval: Type.String(),
  tz: Type.String(),
  from: Type.String(),
  to: Type.String(),
  cohorts: Type.Array(CohortSchema),
});
export type Retention = Static<typeof RetentionSchema>;
