import { Nullable, PagedQuery, Stamps, stamps, Type, type Static } from '@platform/core';
import { Owned, Team } from './owner.js';
import type { RepositoryRow } from '../database.js';

/** The person whose delegated token acts (spec 4.8): an email, as the identity service knows it. */
export const User = Type.String({
  minLength: 1,
  maxLength: 320,
  description:
    "Whose delegated token acts and who authors: the caller's own email (another person's is 403); default: the caller",
});

/** Never `.` or `..` (or only dots): a URL path normalises those away (GitHub's `GET /`). */
export const SEGMENT_PATTERN = '^(?!\\.+$)[A-Za-z0-9._-]+$';
const Segment = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: SEGMENT_PATTERN,
    description: `${what}: letters, digits, '.', '_' and '-', not only dots (local: not starting with '.', no '..')`,
  });

export const RepoInputSchema = Type.Object({
  providerId: Type.String({ minLength: 1, description: 'The provider (id or name)' }),
  owner: Segment('Owner (user or organisation)'),
  repoName: Segment('Repository name'),
  user: Type.Optional(User),
  team: Type.Optional(Team),
});

export const UserBody = Type.Object({ user: Type.Optional(User) });
export const UserQuery = Type.Object({ user: Type.Optional(User) });

export const RepoListQuery = PagedQuery({
  providerId: Type.Optional(Type.String({ minLength: 1, description: 'Only this provider (id)' })),
});

export const RepoSchema = Type.Object({
  id: Type.String(),
  name: Type.String({ description: 'Equals fullName' }),
  providerId: Type.String(),
  owner: Type.String(),
  repoName: Type.String(),
  fullName: Type.String(),
  htmlUrl: Nullable(Type.String(), {
    description:
      'github: the web page; local: the clone URL (smart HTTP, `<GIT_PUBLIC_URL or the origin asked>/git/<owner>/<repoName>.git`)',
  }),
  defaultBranch: Type.String(),
  connectedBy: Type.String(),
  status: Type.String({ description: 'active, archived or missing' }),
  private: Type.Boolean(),
  ...Owned,
  ...Stamps,
});
export type Repo = Static<typeof RepoSchema>;

export const toRepo = (row: RepositoryRow): Repo => ({
  id: row.id,
  name: row.name,
  providerId: row.provider_id,
  owner: row.owner,
  repoName: row.repo_name,
  fullName: row.name,
  htmlUrl: row.html_url,
  defaultBranch: row.default_branch,
  connectedBy: row.connected_by,
  status: row.status,
  private: row.private,
  createdBy: row.created_by,
  team: row.team,
  ...stamps(row.created_at, row.updated_at),
});

export const RepoParams = Type.Object({
  id: Type.String({ minLength: 1, description: 'The repository: id, or fullName in any case' }),
});
