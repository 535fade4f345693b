import { Name, Nullable, PagedQuery, Stamps, Type, type Static } from '@platform/core';
import type { RuleLevel, RuleSeverity } from '../database.js';
import type { RuleWithComponents } from '../repositories/rules.js';
import { CategoryInput, OwnershipShown, Refs, Tags, TeamInput, Text, toRecord } from './common.js';
import { ComponentRefSchema } from './components.js';

export const SEVERITIES = [
  'minor',
  'moderate',
  'serious',
  'critical',
] as const satisfies readonly RuleSeverity[];
export type Severity = (typeof SEVERITIES)[number];
export const LEVELS = ['A', 'AA', 'AAA'] as const satisfies readonly RuleLevel[];
export type Level = (typeof LEVELS)[number];

export const RuleInputSchema = Type.Object({
  name: Name('rule name'),
  category: Type.Optional(CategoryInput),
  severity: Type.Enum([...SEVERITIES], { title: 'severity' }),
  wcag: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^[1-4]\\.[0-9]{1,2}\\.[0-9]{1,2}$',
        description: 'WCAG success criterion, e.g. 1.4.3',
      }),
    ),
  ),
  level: Type.Optional(Nullable(Type.Enum([...LEVELS]))),
  description: Type.Optional(Nullable(Text())),
  components: Type.Optional(Refs(500, 'Component ids or names it applies to')),
  tags: Type.Optional(Tags),
  team: TeamInput,
});

export const RuleSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  category: Nullable(Type.String()),
  severity: Type.Enum([...SEVERITIES]),
  wcag: Nullable(Type.String()),
  level: Nullable(Type.Enum([...LEVELS])),
  description: Nullable(Type.String()),
  components: Type.Array(Type.String(), { description: 'Ids of the components it applies to' }),
  tags: Type.Array(Type.String()),
  ...OwnershipShown,
  ...Stamps,
});
export type Rule = Static<typeof RuleSchema>;

/** The rule as shown, with the ids of the components it applies to. */
export const toRule = (row: RuleWithComponents): Rule => toRecord(row);

export const RuleWithUsageSchema = Type.Object({
  ...RuleSchema.properties,
  usage: Type.Object({ components: Type.Array(ComponentRefSchema) }),
});

export const RuleListQuery = PagedQuery({
  category: Type.Optional(Type.String()),
  severity: Type.Optional(Type.Enum([...SEVERITIES])),
  tag: Type.Optional(Type.String()),
});
