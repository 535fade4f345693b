import { Type } from '@platform/core';

/** Where smart HTTP is mounted: `/git/<owner>/<repoName>.git` (the suffix required). */
export const SMART_HTTP_PREFIX = '/git/:owner/:repo.git';

/** `/git/<owner>/<repoName>.git/...`: the names the repository was connected with, any case. */
export const SmartParams = Type.Object({
  owner: Type.String({ minLength: 1, maxLength: 100, description: 'The owner' }),
  repo: Type.String({
    minLength: 1,
    maxLength: 104,
    description: 'The repository name (before `.git`)',
  }),
});

export const SmartQuery = Type.Object({
  service: Type.Optional(
    Type.Union([Type.Literal('git-upload-pack'), Type.Literal('git-receive-pack')], {
      description: 'Which side asks: fetch (upload-pack) or push (receive-pack)',
    }),
  ),
});

/** The bytes git exchanges (pkt-lines and packs), never JSON. */
export const gitPackBody = { type: 'string', format: 'binary' } as const;

/** `owner/name` of a smart HTTP path (the `.git` suffix dropped). */
export const repoFullName = (params: Record<string, string>) => `${params.owner}/${params.repo}`;

/** A local repository's clone URL, from the origin the platform is reached at. */
export const cloneUrl = (origin: string, owner: string, repoName: string) =>
  `${origin}/git/${owner}/${repoName}.git`;
