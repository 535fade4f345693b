import type { Identity } from '@platform/core';
import type { Result } from '../../schemas/scorecards.js';
import { denied } from '../overview/peers.js';
import type { RuleKind } from './rules.js';

/** The operation of another service whose data a kind's `why` shows (repositories, commits, spend). */
export const READS: Partial<Record<RuleKind, readonly [string, string]>> = {
  hasRepository: ['git', 'getRepo'],
  changedWithinDays: ['git', 'getRepo'],
  withinBudget: ['billing', 'listBudgets'],
  noOpenAnomaly: ['billing', 'listAnomalies'],
};

/**
 * Results as a caller may see them: evaluations run as the catalog, so a rule whose `why` shows
 * what another service knows (a budget's figures, a repository, a commit) has its `why` replaced
 * by the caller's refusal there, decided as the overview decides its parts; the status stays
 * (the level shows it anyway).
 */
export function forReader(results: Result[], caller: Identity, authOn: boolean): Result[] {
  const refusals = new Map<string, string | undefined>();
  const refusal = (kind: string) => {
    const reads = READS[kind as RuleKind];
    if (!reads) return undefined;
    const key = reads.join('.');
    if (!refusals.has(key)) refusals.set(key, denied({ caller, authOn }, ...reads));
    return refusals.get(key);
  };
  return results.map((result) => ({
    ...result,
    rules: result.rules.map((rule) => {
      const why = refusal(rule.kind);
      return why === undefined ? rule : { ...rule, why: `Not shown: ${why}` };
    }),
  }));
}
