import { badRequest } from '@platform/core';
import type { LevelSpec, RuleKind, RuleSpec } from './rules.js';

/** What `?level=` says for the services that reach no level: no level may be named so (any case). */
export const NO_LEVEL = 'none';

type ParamCheck = (value: unknown) => string | undefined;
const PARAMS: Record<RuleKind, Record<string, { required: boolean; check: ParamCheck }>> = {
  hasOwner: {},
  hasSystem: {},
  hasDescription: {},
  hasDocs: {},
  hasRepository: {},
  noOpenAnomaly: {},
  lifecycleIn: {
    values: {
      required: true,
      check: (v) =>
        Array.isArray(v) &&
        v.length >= 1 &&
        v.length <= 20 &&
        v.every((s) => typeof s === 'string' && s.length >= 1 && s.length <= 100)
          ? undefined
          : 'must be 1 to 20 lifecycles (strings of 1-100 characters)',
    },
  },
  withinBudget: {
    requireBudget: {
      required: false,
      check: (v) => (typeof v === 'boolean' ? undefined : 'must be true or false'),
    },
  },
  changedWithinDays: {
    days: {
      required: true,
      check: (v) =>
        Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 3650
          ? undefined
          : 'must be a whole number of days from 1 to 3650',
    },
  },
};

/**
 * Checks what the schema cannot: each rule's parameters for its kind, rule ids unique, level
 * names unique (any case), every level's rules known and required by one level only. Throws 400
 * naming every problem, with its place.
 */
export function checkScorecard(rules: readonly RuleSpec[], levels: readonly LevelSpec[]): void {
  const problems: string[] = [];
  const ids = new Map<string, number>();
  rules.forEach((rule, i) => {
    const seen = ids.get(rule.id);
    if (seen !== undefined)
      problems.push(`rules[${i}].id ${rule.id} is used by rules[${seen}] too`);
    else ids.set(rule.id, i);
    const specs = PARAMS[rule.kind];
    const params = rule.params ?? {};
    for (const key of Object.keys(params))
      if (!Object.hasOwn(specs, key))
        problems.push(`rules[${i}].params has an unknown field for ${rule.kind}: ${key}`);
    for (const [key, spec] of Object.entries(specs)) {
      if (params[key] === undefined) {
        if (spec.required) problems.push(`rules[${i}].params.${key} is required for ${rule.kind}`);
        continue;
      }
      const problem = spec.check(params[key]);
      if (problem) problems.push(`rules[${i}].params.${key} ${problem}`);
    }
  });
  const names = new Map<string, number>();
  const requiredBy = new Map<string, number>();
  levels.forEach((level, i) => {
    if (level.name.toLowerCase() === NO_LEVEL)
      problems.push(`levels[${i}].name ${level.name} is taken: ?level=none means no level`);
    const seen = names.get(level.name.toLowerCase());
    if (seen !== undefined)
      problems.push(`levels[${i}].name ${level.name} is used by levels[${seen}] too`);
    else names.set(level.name.toLowerCase(), i);
    level.rules.forEach((id, j) => {
      if (!ids.has(id)) problems.push(`levels[${i}].rules[${j}]: no rule ${id} in rules`);
      else if (requiredBy.has(id))
        problems.push(
          `levels[${i}].rules[${j}]: rule ${id} is required by levels[${requiredBy.get(id)}] already (each level includes those below it)`,
        );
      else requiredBy.set(id, i);
    });
  });
  if (problems.length > 0)
    throw badRequest(
      problems.length === 1
        ? problems[0]
        : `${problems.length} problems: ${problems.map((p) => `- ${p}`).join('\n')}`,
    );
}
