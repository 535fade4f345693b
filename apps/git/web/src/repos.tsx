import {
  api,
  formatDate,
  Link,
  Status,
  useSearchParams,
  type ArgsOf,
  type DataOf,
  type ResourceSpec,
} from '@platform/ui';
import type { ReactNode } from 'react';
import { Branches } from './branches';
import { CloneUrl, CLONE_HINT } from './clone';
import { Protection } from './protection';
import { Commits } from './commits';
import { Pulls } from './pulls';

export type Repo = DataOf<'git.getRepo'>;
type RepoInput = ArgsOf<'git.connectRepo'>['body'];

const TABS = [
  ['branches', 'Branches'],
  ['commits', 'Commits'],
  ['pulls', 'Pull requests'],
  ['protection', 'Protection'],
] as const;

/** A repository's branches, commits and pull requests, one tab at a time (kept in the URL). */
function RepoViews({ repo }: { repo: Repo }) {
  const [params] = useSearchParams();
  const tab = params.get('tab') ?? 'branches';
  return (
    <>
      <nav className="ui-tabs git-tabs" aria-label="Repository views">
        {TABS.map(([name, label]) => (
          <Link key={name} to={`?tab=${name}`} aria-current={tab === name ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      {tab === 'commits' ? (
        <Commits repo={repo} />
      ) : tab === 'pulls' ? (
        <Pulls repo={repo} />
      ) : tab === 'protection' ? (
        <Protection repo={repo} />
      ) : (
        <Branches repo={repo} />
      )}
    </>
  );
}

/** Connected repositories: list, detail (branches, commits, pull requests), connect, disconnect. */
export const repos: ResourceSpec<Repo> = {
  path: 'repos',
  singular: 'repository',
  plural: 'repositories',
  key: (r) => r.id,
  title: (r) => r.fullName,
  list: (query) => api.git.listRepos({ query }),
  get: (idOrName) => api.git.getRepo({ path: { idOrName } }),
  create: (body) => api.git.connectRepo({ body: body as RepoInput }),
  remove: (idOrName) => api.git.deleteRepo({ path: { idOrName } }),
  access: { service: 'git', create: 'connectRepo', remove: 'deleteRepo' },
  removeLabel: 'Disconnect',
  removeQuestion: (r) =>
    `Disconnect ${r.fullName}? The platform stops showing it; nothing is deleted at ${r.fullName}'s provider, and connecting it again brings it back.`,
  description:
    'Repositories connected through a provider, newest first. Disconnecting one deletes no data.',
  filters: [{ name: 'providerId', label: 'Provider id', type: 'text' }],
  columns: [
    { header: 'Repository', cell: (r) => r.fullName },
    { header: 'Default branch', cell: (r) => r.defaultBranch },
    { header: 'Status', cell: (r) => <Status value={r.status} /> },
    { header: 'Private', cell: (r) => (r.private ? 'Yes' : 'No') },
    { header: 'Connected', cell: (r) => formatDate(r.created) },
  ],
  fields: [
    {
      name: 'providerId',
      label: 'Provider',
      required: true,
      hint: 'The name or id of a git provider',
    },
    { name: 'owner', label: 'Owner', required: true },
    { name: 'repoName', label: 'Repository name', required: true },
    {
      name: 'user',
      label: 'User',
      hint: 'GitHub: whose delegated token acts (required); local: the commit author email',
    },
    { name: 'team', label: 'Team', kind: 'team' },
  ],
  details: (r) => [
    ['Id', <code key="id">{r.id}</code>],
    [
      'Provider',
      <Link key="p" to={`/providers/${r.providerId}`}>
        {r.providerId}
      </Link>,
    ],
    ['Default branch', r.defaultBranch],
    ['Status', <Status key="s" value={r.status} />],
    ['Private', r.private ? 'Yes' : 'No'],
    // A local repository's htmlUrl is its clone URL (smart HTTP on the platform).
    ...(r.htmlUrl?.endsWith('.git')
      ? ([
          ['Clone', <CloneUrl key="clone" url={r.htmlUrl} />],
          ['How to clone', CLONE_HINT],
        ] as [string, ReactNode][])
      : ([['On the web', r.htmlUrl && <a href={r.htmlUrl}>{r.htmlUrl}</a>]] as [
          string,
          ReactNode,
        ][])),
    ['Connected by', r.connectedBy],
    ['Connected', formatDate(r.created)],
  ],
  more: (r) => <RepoViews repo={r} />,
};
