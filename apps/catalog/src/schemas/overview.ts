import { IsoTimestamp, Nullable, RefSchema, Type, type TSchema } from '@platform/core';
import { ServiceSchema } from './services.js';
import { ResultSchema } from './scorecards.js';

const Unavailable = Type.Object({
  available: Type.Literal(false),
  reason: Type.String({
    description:
      'Why: the service is off or unreachable, did not answer in time, or the caller may not read it',
  }),
});

/** A part another service answers: `{ available: true, ...data }` or `{ available: false, reason }`. */
const PartOf = <T extends Record<string, TSchema>>(fields: T, description: string) =>
  Type.Union([Type.Object({ available: Type.Literal(true), ...fields }), Unavailable], {
    description,
  });

const Cents = (description: string) => Nullable(Type.Number({ description }));
const Period = Type.Object({ from: Type.String(), to: Type.String() });

export const OverviewSchema = Type.Object({
  service: ServiceSchema,
  owner: Nullable(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      email: Nullable(Type.String()),
      kind: Type.String(),
      displayName: Nullable(Type.String()),
      members: Type.Integer({ description: 'How many people its members list has' }),
    }),
  ),
  dependencies: Type.Object({
    dependsOn: Type.Array(RefSchema, { description: 'What it depends on, one step' }),
    usedBy: Type.Array(RefSchema, { description: 'What depends on it, one step' }),
  }),
  spend: PartOf(
    {
      month: Type.Integer({ description: 'Cents resolved to the service this month so far' }),
      previous: Type.Integer({ description: 'Cents on the same days of the month before' }),
      trend: Nullable(Type.Number(), {
        description: 'Change from previous to month in percent (one decimal); null: previous is 0',
      }),
      currency: Type.String(),
      period: Period,
      previousPeriod: Period,
    },
    'Billing: spend resolved to this service (reportSummary with catalogService)',
  ),
  budgets: PartOf(
    {
      items: Type.Array(
        Type.Object({
          id: Type.String(),
          name: Type.String(),
          amount: Cents('Cents a period'),
          period: Nullable(Type.String()),
          spent: Cents('Cents spent this period'),
          forecast: Cents('Cents forecast at the end of the period'),
          status: Nullable(Type.String({ description: 'ok, warning or over' })),
        }),
      ),
    },
    'Billing: the budgets whose filter names this service (listBudgets?service=)',
  ),
  anomalies: PartOf(
    {
      items: Type.Array(
        Type.Object({
          id: Type.String(),
          provider: Nullable(Type.String()),
          day: Nullable(Type.String()),
          expected: Cents('Cents expected that day'),
          actual: Cents('Cents spent that day'),
          size: Cents('actual - expected, cents'),
          score: Nullable(Type.Number()),
          status: Nullable(Type.String()),
        }),
      ),
    },
    "Billing: this service's open anomalies (listAnomalies?service=&status=open)",
  ),
  repositories: PartOf(
    {
      items: Type.Array(
        Type.Object({
          fullName: Type.String({ description: 'owner/repo' }),
          source: Type.String({ description: 'The annotation or link that names it' }),
          connected: Type.Boolean({ description: 'Whether git has it connected' }),
          id: Nullable(Type.String()),
          htmlUrl: Nullable(Type.String()),
          defaultBranch: Nullable(Type.String()),
          status: Nullable(Type.String()),
          lastCommit: Nullable(
            Type.Object({ sha: Type.String(), message: Type.String(), date: Type.String() }),
          ),
        }),
      ),
    },
    'Git: the repositories its annotations and links name (README: Overview)',
  ),
  audit: PartOf(
    {
      items: Type.Array(
        Type.Object({
          id: Type.String(),
          action: Type.String(),
          actor: Nullable(Type.String()),
          resource: Nullable(Type.String()),
          service: Nullable(Type.String()),
          timestamp: Type.String(),
        }),
      ),
    },
    'Ledger: the newest audit events about it (admins only, as the audit trail)',
  ),
  usage: PartOf(
    {
      property: Type.String({ description: 'The event property that names the service' }),
      from: Type.String(),
      to: Type.String(),
      total: Type.Integer({ description: 'Events in the window' }),
      events: Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() }), {
        description: 'The most frequent event names, at most 10',
      }),
    },
    'Pulse: events of the last 30 days whose `service` property is its name',
  ),
  scorecards: Type.Array(ResultSchema, { description: 'Its result on every scorecard' }),
  generatedAt: IsoTimestamp,
});
