import { Nullable, Stamps, stamps, Type, type Static } from '@platform/core';
import { RefName } from './git.js';
import { RepoParams, User } from './repos.js';
import type { ProtectionRow, ReviewRow } from '../database.js';

export const ProtectionParams = Type.Object({
  id: RepoParams.properties.id,
  branch: RefName('The protected branch'),
});

export const ProtectionInputSchema = Type.Object({
  requirePullRequest: Type.Boolean({
    default: false,
    description: 'Refuse every push and API commit: changes arrive by merging a pull request',
  }),
  requiredApprovals: Type.Integer({
    minimum: 0,
    maximum: 20,
    default: 0,
    description: 'Approvals a pull request needs before it merges (0-20)',
  }),
});

export const ProtectionSchema = Type.Object({
  branch: Type.String(),
  requirePullRequest: Type.Boolean(),
  requiredApprovals: Type.Integer(),
  allowForcePushes: Type.Boolean({ description: 'Always false: protected branches refuse them' }),
  allowDeletions: Type.Boolean({ description: 'Always false: protected branches refuse them' }),
  createdBy: Nullable(Type.String()),
  ...Stamps,
});

export const toProtection = (row: ProtectionRow): Static<typeof ProtectionSchema> => ({
  branch: row.branch,
  requirePullRequest: row.require_pull_request,
  requiredApprovals: row.required_approvals,
  allowForcePushes: false,
  allowDeletions: false,
  createdBy: row.created_by,
  ...stamps(row.created_at, row.updated_at),
});

/** GitHub's review events. */
export const REVIEW_EVENTS = { APPROVE: 'approved', REQUEST_CHANGES: 'changes_requested', COMMENT: 'commented' } as const; // prettier-ignore

export const ReviewInputSchema = Type.Object({
  user: Type.Optional(User),
  event: Type.Union(
    Object.keys(REVIEW_EVENTS).map((e) => Type.Literal(e as keyof typeof REVIEW_EVENTS)),
    { description: 'APPROVE, REQUEST_CHANGES or COMMENT (as GitHub)' },
  ),
  body: Type.Optional(Type.String({ maxLength: 65_536 })),
});

export const ReviewSchema = Type.Object({
  id: Type.String(),
  user: Type.String({ description: 'Who reviewed (an email)' }),
  state: Type.String({ description: 'approved, changes_requested or commented' }),
  body: Nullable(Type.String()),
  commitId: Type.String({ description: 'The head commit reviewed' }),
  submittedAt: Type.String(),
});

export const toReview = (row: ReviewRow): Static<typeof ReviewSchema> => ({
  id: row.id,
  user: row.author,
  state: row.state,
  body: row.body,
  commitId: row.commit_sha,
  submittedAt: row.created_at.toISOString(),
});

export const MergeabilitySchema = Type.Object({
  mergeable: Type.Boolean({ description: "Whether the base branch's rules hold" }),
  missing: Type.Array(Type.String(), { description: 'What the rules still need' }),
  reviews: Type.Array(ReviewSchema),
});
