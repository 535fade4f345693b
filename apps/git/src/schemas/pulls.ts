import { Nullable, Stamps, stamps, Type, type Static } from '@platform/core';
import { RefName } from './git.js';
import { RepoParams, User } from './repos.js';
import type { PullRow } from '../database.js';

export const PULL_STATES = ['open', 'closed', 'all'] as const;
export const MERGE_METHODS = ['merge', 'squash', 'rebase'] as const;

export const PullListQuery = Type.Object({
  user: Type.Optional(User),
  state: Type.Union(
    PULL_STATES.map((s) => Type.Literal(s)),
    { default: 'open' },
  ),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
  offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }),
});

export const PullInputSchema = Type.Object({
  user: Type.Optional(User),
  title: Type.String({ minLength: 1, maxLength: 256 }),
  body: Type.Optional(Type.String({ maxLength: 65_536 })),
  head: RefName('The branch with the changes'),
  base: RefName('The branch they go into'),
});

export const PullParams = Type.Object({
  id: RepoParams.properties.id,
  number: Type.Integer({ minimum: 1 }),
});

export const MergeInputSchema = Type.Object({
  user: Type.Optional(User),
  method: Type.Union(
    MERGE_METHODS.map((m) => Type.Literal(m)),
    { default: 'merge', description: 'merge (a merge commit), squash or rebase (github only)' },
  ),
  message: Type.Optional(Type.String({ minLength: 1, maxLength: 65_536 })),
});

export const PullSchema = Type.Object({
  number: Type.Integer(),
  title: Type.String(),
  body: Nullable(Type.String()),
  state: Type.String({ description: 'open or closed' }),
  head: Type.String(),
  base: Type.String(),
  merged: Type.Boolean(),
  mergeCommitSha: Nullable(Type.String()),
  mergedAt: Nullable(Type.String()),
  author: Type.String(),
  htmlUrl: Nullable(Type.String()),
  ...Stamps,
});
export type Pull = Static<typeof PullSchema>;

export const toPull = (row: PullRow): Pull => ({
  number: row.number,
  title: row.title,
  body: row.body,
  state: row.state,
  head: row.head,
  base: row.base,
  merged: row.merged,
  mergeCommitSha: row.merge_commit_sha,
  mergedAt: row.merged_at?.toISOString() ?? null,
  author: row.author,
  htmlUrl: null,
  ...stamps(row.created_at, row.updated_at),
});

export const MergeSchema = Type.Object({
  merged: Type.Boolean(),
  sha: Type.String(),
  message: Type.String(),
});
export type MergeResult = Static<typeof MergeSchema>;
