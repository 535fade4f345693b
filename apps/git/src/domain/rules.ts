import { conflict } from '@platform/core';
import type { GitDb, PullRow, RepositoryRow, ReviewRow } from '../database.js';
import { findProtection, listReviews } from '../repositories/protections.js';

const approvalsText = (n: number) => `${n} approval${n === 1 ? '' : 's'}`;

/**
 * A write through the API to a branch of a local repository (a commit, a deletion), held to its
 * protection as a push is (git's update hook, domain/smart/protect.ts): 409 naming the rule.
 */
export async function directWrite(
  db: GitDb,
  repo: RepositoryRow,
  branch: string,
  kind: 'commit' | 'delete',
) {
  const rule = await findProtection(db, repo.id, branch);
  if (!rule) return;
  if (kind === 'delete') throw conflict(`${branch} is a protected branch: it cannot be deleted`);
  if (rule.require_pull_request)
    throw conflict(
      `${branch} is a protected branch: changes reach it through a pull request with ${approvalsText(rule.required_approvals)}, not a commit`,
    );
}

/**
 * Each reviewer's review that counts: their latest approval or request for changes. A reviewer is
 * a person (`author`: a signed-in person's email, a personal key's owner's, else the key's own
 * name), so one person's several keys are one reviewer.
 */
export function standingReviews(reviews: ReviewRow[]): ReviewRow[] {
  const latest = new Map<string, ReviewRow>();
  for (const review of reviews)
    if (review.state !== 'commented') latest.set(review.author.toLowerCase(), review);
  return [...latest.values()];
}

/**
 * What a pull request into a protected branch still lacks (empty when it may be merged). Only an
 * approval of `headSha`, the head branch's commit now, counts: new commits need approving again.
 */
export async function unmetRules(
  db: GitDb,
  repo: RepositoryRow,
  pull: PullRow,
  headSha: string | undefined,
) {
  const rule = await findProtection(db, repo.id, pull.base);
  if (!rule) return [];
  const standing = standingReviews(await listReviews(db, repo.id, pull.number));
  const approved = standing.filter((r) => r.state === 'approved');
  const approvals = approved.filter((r) => headSha !== undefined && r.commit_sha === headSha);
  const blocking = standing.filter((r) => r.state === 'changes_requested').map((r) => r.author);
  const missing: string[] = [];
  const stale =
    approved.length > approvals.length ? '; approvals of an older commit do not count' : '';
  if (approvals.length < rule.required_approvals)
    missing.push(`${approvalsText(rule.required_approvals)} (it has ${approvals.length}${stale})`);
  if (blocking.length > 0) missing.push(`the changes requested by ${blocking.join(', ')}`);
  return missing;
}

/** A merge into a protected branch: 409 saying which rules do not hold yet. */
export async function mergeable(
  db: GitDb,
  repo: RepositoryRow,
  pull: PullRow,
  headSha: string | undefined,
) {
  const missing = await unmetRules(db, repo, pull, headSha);
  if (missing.length > 0)
    throw conflict(
      `Pull request #${pull.number} cannot be merged into ${pull.base}, a protected branch: it needs ${missing.join(' and ')}`,
    );
}
