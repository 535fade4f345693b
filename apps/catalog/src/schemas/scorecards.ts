import {
  IsoTimestamp,
  Name,
  Nullable,
  PagedQuery,
  RefSchema,
  StampsAt,
  stampsAt,
  Type,
  UpdateOf,
  type Static,
} from '@platform/core';
import type { Selectable } from '@platform/db';
import type { ScorecardsTable } from '../database.js';
import { RULE_KINDS, type LevelSpec, type RuleSpec } from '../domain/scorecards/rules.js';
import type { ResultRow } from '../repositories/scorecards.js';

const RuleSchema = Type.Object({
  id: Type.String({
    pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$',
    description: 'Names the rule in levels and results: 1-64 letters, digits, _ . -',
  }),
  kind: Type.Enum([...RULE_KINDS], {
    description:
      'hasOwner, hasSystem, hasDescription, hasDocs, hasRepository, lifecycleIn { values }, withinBudget { requireBudget? }, noOpenAnomaly, changedWithinDays { days } (README: Scorecards)',
  }),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  params: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: "The kind's parameters" }),
  ),
});

const LevelSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 50, pattern: '^\\S(.*\\S)?$' }),
  rules: Type.Array(Type.String(), {
    minItems: 1,
    maxItems: 50,
    description: 'Ids of the rules this level adds to those of the levels before it',
  }),
});

const Fields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  rules: Type.Array(RuleSchema, { minItems: 1, maxItems: 50 }),
  levels: Type.Array(LevelSchema, {
    minItems: 1,
    maxItems: 10,
    description: 'Lowest first: a service reaches a level when its rules and all below pass',
  }),
};

export const ScorecardInputSchema = Type.Object({ name: Name('scorecard name'), ...Fields });
export const ScorecardUpdateSchema = UpdateOf(ScorecardInputSchema);

export const ScorecardSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  rules: Type.Array(RuleSchema),
  levels: Type.Array(LevelSchema),
  createdBy: Nullable(Type.String()),
  ...StampsAt,
});
export type Scorecard = Static<typeof ScorecardSchema>;

export const toScorecard = (row: Selectable<ScorecardsTable>): Scorecard => ({
  id: row.id,
  name: row.name,
  description: row.description,
  rules: row.rules as RuleSpec[],
  levels: row.levels as LevelSpec[],
  createdBy: row.created_by,
  ...stampsAt(row.created_at, row.updated_at),
});

export const RuleResultSchema = Type.Object({
  rule: Type.String(),
  kind: Type.String(),
  status: Type.Enum(['pass', 'fail', 'unknown'] as const, {
    description: 'unknown: what the rule reads from another service could not be read',
  }),
  why: Type.String(),
});

export const ResultSchema = Type.Object({
  scorecard: RefSchema,
  service: RefSchema,
  level: Nullable(Type.String(), { description: 'The highest level reached; null: none' }),
  rank: Type.Integer({ description: "The level's index (0: the first); -1: none" }),
  passed: Type.Integer(),
  total: Type.Integer(),
  rules: Type.Array(RuleResultSchema),
  evaluatedAt: IsoTimestamp,
});
export type Result = Static<typeof ResultSchema>;

export const toResult = (row: ResultRow): Result => ({
  scorecard: { id: row.scorecard_id, name: row.scorecard_name },
  service: { id: row.service_id, name: row.service_name },
  level: row.level,
  rank: row.rank,
  passed: row.passed,
  total: row.total,
  rules: row.rules as Result['rules'],
  evaluatedAt: row.evaluated_at.toISOString(),
});

export const ResultListQuery = PagedQuery({
  level: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Only services at this level (any case); none: none',
    }),
  ),
  service: Type.Optional(
    Type.String({ minLength: 1, description: 'Only this service (id or name)' }),
  ),
  rule: Type.Optional(
    Type.String({ minLength: 1, description: 'Only results where this rule has `status`' }),
  ),
  status: Type.Optional(
    Type.Enum(['pass', 'fail', 'unknown'] as const, {
      description: 'With `rule`: the status it has (default fail)',
    }),
  ),
});
