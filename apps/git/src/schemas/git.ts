import { Nullable, Type, type Static } from '@platform/core';
import { RepoParams, User } from './repos.js';

export const Sha = Type.String({ pattern: '^[0-9a-f]{40}$', description: 'A full commit sha' });

/**
 * THE rule for every ref, branch or sha the API takes (git check-ref-format, one level allowed):
 * no `..`, `//`, `@{`, no leading `-`, `/` or `.`, no component starting with `.` or ending in
 * `.lock`, no trailing `/` or `.`, not `@`, no control characters, space, `~^:?*[\`.
 * Schemas use it as a pattern; `checkRef` (providers/backend.ts) applies it in code.
 */
export const REF_PATTERN =
  '^(?![-/.])(?!@$)(?!.*(\\.\\.|//|/\\.|@\\{|\\.lock(/|$)|/$|\\.$))[^\\x00-\\x20~^:?*\\[\\\\\\x7f]+$';
export const REF_MAX_LENGTH = 250;

export const RefName = (description: string) =>
  Type.String({ minLength: 1, maxLength: REF_MAX_LENGTH, pattern: REF_PATTERN, description });

export const BranchSchema = Type.Object({
  name: Type.String(),
  sha: Type.String(),
  protected: Type.Boolean(),
  default: Type.Boolean({ description: "Whether it is the repository's default branch" }),
});
export type Branch = Static<typeof BranchSchema>;

export const BranchInputSchema = Type.Object({
  user: Type.Optional(User),
  name: RefName('The new branch'),
  from: Type.Optional(
    RefName('A branch, tag or sha the branch starts at; default: the default branch'),
  ),
});

export const BranchParams = Type.Object({
  id: RepoParams.properties.id,
  name: RefName('The branch'),
});

const Person = Type.Object({ name: Type.String(), email: Type.String(), date: Type.String() });

export const ChangedFileSchema = Type.Object({
  path: Type.String(),
  status: Type.String({ description: 'added, modified, removed or renamed' }),
  additions: Type.Optional(Type.Integer()),
  deletions: Type.Optional(Type.Integer()),
  previousPath: Type.Optional(Type.String()),
});
export type ChangedFile = Static<typeof ChangedFileSchema>;

export const CommitSchema = Type.Object({
  sha: Type.String(),
  message: Type.String(),
  author: Person,
  committer: Person,
  parents: Type.Array(Type.String()),
  htmlUrl: Nullable(Type.String()),
  files: Type.Optional(Type.Array(ChangedFileSchema, { description: 'Only on a single commit' })),
});
export type Commit = Static<typeof CommitSchema>;

export const CommitListQuery = Type.Object({
  user: Type.Optional(User),
  branch: Type.Optional(RefName('Branch (or sha) to list from; default: the default branch')),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 30, description: 'Commits (1-1000)' }),
  offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }),
});

export const CommitParams = Type.Object({ id: RepoParams.properties.id, sha: Sha });

export const FileChangeSchema = Type.Object({
  path: Type.String({
    minLength: 1,
    maxLength: 4096,
    description: 'Path in the repository (no leading /, no . or .. segments)',
  }),
  content: Nullable(Type.String(), { description: 'The new content; null deletes the file' }),
  encoding: Type.Optional(
    Type.Union([Type.Literal('utf8'), Type.Literal('base64')], { default: undefined }),
  ),
});
export type FileChange = Static<typeof FileChangeSchema>;

export const CommitInputSchema = Type.Object({
  user: Type.Optional(User),
  branch: RefName(
    'The branch the commit goes on (created from nothing only in an empty repository)',
  ),
  message: Type.String({ minLength: 1, maxLength: 65_536 }),
  files: Type.Array(FileChangeSchema, { minItems: 1, maxItems: 1000 }),
});

export const RefQuery = Type.Object({
  user: Type.Optional(User),
  ref: Type.Optional(RefName('Branch, tag or sha; default: the default branch')),
});
export const FilesQuery = Type.Object({
  ...RefQuery.properties,
  path: Type.Optional(
    Type.String({ maxLength: 4096, description: 'Directory; default: the root' }),
  ),
});

export const EntrySchema = Type.Object({
  name: Type.String(),
  path: Type.String(),
  type: Type.String({ description: 'file, dir, symlink or submodule' }),
  sha: Type.String(),
  size: Nullable(Type.Integer()),
});
export type Entry = Static<typeof EntrySchema>;

export const FileSchema = Type.Object({
  path: Type.String(),
  sha: Type.String(),
  size: Type.Integer(),
  encoding: Type.String({ description: 'utf8, or base64 when the content is not UTF-8 text' }),
  content: Type.String(),
});
export type FileContent = Static<typeof FileSchema>;

export const CompareParams = Type.Object({
  id: RepoParams.properties.id,
  '*': Type.String({
    maxLength: 2 * REF_MAX_LENGTH + 3,
    description: '<base>...<head>, each a ref as RefName allows (branches may hold /)',
  }),
});

export const CompareSchema = Type.Object({
  base: Type.String(),
  head: Type.String(),
  mergeBase: Nullable(Type.String()),
  status: Type.String({ description: 'identical, ahead, behind or diverged' }),
  aheadBy: Type.Integer(),
  behindBy: Type.Integer(),
  commits: Type.Array(CommitSchema),
  files: Type.Array(ChangedFileSchema),
});
export type Comparison = Static<typeof CompareSchema>;
