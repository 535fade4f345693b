import { docsOf, repositoryRefs, type LinkedService } from '../overview/links.js';
import type { Part } from '../overview/peers.js';

/**
 * The rule kinds a scorecard may use, each with its parameters and what it reads. A rule passes,
 * fails, or is unknown (what it needs from another service could not be read); every result says
 * why.
 */
export const RULE_KINDS = [
  'hasOwner',
  'hasSystem',
  'hasDescription',
  'hasDocs',
  'hasRepository',
  'lifecycleIn',
  'withinBudget',
  'noOpenAnomaly',
  'changedWithinDays',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

export interface RuleSpec {
  id: string;
  kind: RuleKind;
  title?: string;
  params?: Record<string, unknown>;
}
export interface LevelSpec {
  name: string;
  rules: string[];
}

/** Which other service's data a kind reads. */
export type Source = 'repositories' | 'budgets' | 'anomalies';
export const SOURCES: Partial<Record<RuleKind, Source>> = {
  hasRepository: 'repositories',
  changedWithinDays: 'repositories',
  withinBudget: 'budgets',
  noOpenAnomaly: 'anomalies',
};

/** What a service's rules are evaluated on. */
export interface Facts {
  service: LinkedService & {
    description: string | null;
    owner: string | null;
    system: string | null;
    lifecycle: string | null;
    updatedAt: Date;
  };
  repositories?: Part<{
    items: Array<{
      fullName: string;
      connected: boolean;
      lastCommit: { sha: string; date: string } | null;
    }>;
  }>;
  budgets?: Part<{
    items: Array<{
      name: string;
      amount: number | null;
      spent: number | null;
      status: string | null;
    }>;
  }>;
  anomalies?: Part<{
    items: Array<{
      day: string | null;
      provider: string | null;
      actual: number | null;
      expected: number | null;
    }>;
  }>;
}

export type Status = 'pass' | 'fail' | 'unknown';
export interface RuleResult {
  rule: string;
  kind: RuleKind;
  status: Status;
  why: string;
}

type Outcome = [Status, string];
const pass = (why: string): Outcome => ['pass', why];
const fail = (why: string): Outcome => ['fail', why];
const cents = (v: number | null) => (v === null ? '?' : (v / 100).toFixed(2));

/** A kind's verdict on the facts, with why. */
function judge(rule: RuleSpec, facts: Facts, now: Date): Outcome {
  const { service } = facts;
  const params = rule.params ?? {};
  switch (rule.kind) {
    case 'hasOwner':
      return service.owner ? pass(`owned by ${service.owner}`) : fail('no owner');
    case 'hasSystem':
      return service.system ? pass(`part of ${service.system}`) : fail('in no system');
    case 'hasDescription':
      return service.description?.trim() ? pass('has a description') : fail('no description');
    case 'hasDocs': {
      const docs = docsOf(service);
      return docs
        ? pass(`docs: ${docs}`)
        : fail('no backstage.io/techdocs-ref annotation and no docs link');
    }
    case 'lifecycleIn': {
      const values = params.values as string[];
      const ok = values.some((v) => v.toLowerCase() === service.lifecycle?.toLowerCase());
      const is = service.lifecycle ? `lifecycle ${service.lifecycle}` : 'no lifecycle';
      return ok ? pass(is) : fail(`${is}, not one of ${values.join(', ')}`);
    }
    case 'hasRepository': {
      if (repositoryRefs(service).length === 0)
        return fail(
          'names no repository (github.com/project-slug, a source location or a repository link)',
        );
      const repos = facts.repositories;
      if (!repos?.available) return ['unknown', repos?.reason ?? 'git was not asked'];
      const connected = repos.items.filter((r) => r.connected).map((r) => r.fullName);
      if (connected.length > 0) return pass(`connected in git: ${connected.join(', ')}`);
      return fail(`not connected in git: ${repos.items.map((r) => r.fullName).join(', ')}`);
    }
    case 'withinBudget': {
      const budgets = facts.budgets;
      if (!budgets?.available) return ['unknown', budgets?.reason ?? 'billing was not asked'];
      if (budgets.items.length === 0)
        return params.requireBudget ? fail('no budget names it') : pass('no budget names it');
      const over = budgets.items.filter((b) => b.status === 'over');
      if (over.length > 0)
        return fail(
          over
            .map((b) => `budget ${b.name} is over: ${cents(b.spent)} of ${cents(b.amount)}`)
            .join('; '),
        );
      return pass(`within ${budgets.items.length} budget${budgets.items.length === 1 ? '' : 's'}`);
    }
    case 'noOpenAnomaly': {
      const anomalies = facts.anomalies;
      if (!anomalies?.available) return ['unknown', anomalies?.reason ?? 'billing was not asked'];
      const [first] = anomalies.items;
      if (!first) return pass('no open anomaly');
      const n = anomalies.items.length;
      return fail(
        `${n} open anomal${n === 1 ? 'y' : 'ies'}, e.g. ${first.day} (${first.provider ?? 'all providers'}): ${cents(first.actual)} where ${cents(first.expected)} was expected`,
      );
    }
    case 'changedWithinDays':
      return changedWithin(params.days as number, facts, now);
  }
}

/** The record's last change, or the newest commit of a repository it names, within `days`. */
function changedWithin(days: number, facts: Facts, now: Date): Outcome {
  const since = now.getTime() - days * 86_400_000;
  const record = facts.service.updatedAt;
  const changes: Array<[number, string]> = [
    [record.getTime(), `catalog record updated ${record.toISOString()}`],
  ];
  const repos = facts.repositories;
  if (repos?.available)
    for (const r of repos.items)
      if (r.lastCommit)
        changes.push([
          Date.parse(r.lastCommit.date),
          `commit ${r.lastCommit.sha.slice(0, 7)} in ${r.fullName} at ${r.lastCommit.date}`,
        ]);
  const [latest, what] = changes.sort((a, b) => b[0] - a[0])[0];
  if (latest >= since) return pass(`changed within ${days} days: ${what}`);
  const unread = repositoryRefs(facts.service).length > 0 && !repos?.available;
  if (unread)
    return ['unknown', `${what}; repositories unread: ${repos?.reason ?? 'git was not asked'}`];
  return fail(`not changed within ${days} days: last ${what}`);
}

export interface Evaluation {
  level: string | null;
  /** The index of the level reached; -1: none. */
  rank: number;
  passed: number;
  total: number;
  rules: RuleResult[];
}

/**
 * The service's level: the last of the ordered levels whose rules, and every rule of the levels
 * before it, pass; none when the first level's do not.
 */
export function evaluate(
  scorecard: { rules: RuleSpec[]; levels: LevelSpec[] },
  facts: Facts,
  now: Date,
): Evaluation {
  const rules = scorecard.rules.map((rule) => {
    const [status, why] = judge(rule, facts, now);
    return { rule: rule.id, kind: rule.kind, status, why };
  });
  const passing = new Set(rules.filter((r) => r.status === 'pass').map((r) => r.rule));
  let rank = -1;
  for (const [i, level] of scorecard.levels.entries()) {
    if (!level.rules.every((id) => passing.has(id))) break;
    rank = i;
  }
  return {
    level: rank >= 0 ? scorecard.levels[rank].name : null,
    rank,
    passed: passing.size,
    total: rules.length,
    rules,
  };
}
