import { createHash } from 'node:crypto';

// The object model of the fake GitHub (fake-github.ts): blobs, trees (a flat path → blob map),
// commits, repositories with their refs, pull requests and hooks, and GitHub's JSON shapes of them.

export const PAGE = 2;
export const DOCS = 'https://docs.github.com/rest';
export type Json = Record<string, any>;
export type Answer = [number, unknown?, Record<string, string>?];

const sha1 = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('hex');
export const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const who = { name: 'Octo Cat', email: 'octo@example.com', date: '2026-01-01T00:00:00Z' };

export function githubModel() {
  const blobs = new Map<string, string>(); // sha → base64
  const trees = new Map<string, Map<string, string>>(); // sha → path → blob sha
  const commits = new Map<string, Json>();
  const repos = new Map<string, Json>();
  let nextId = 1;

  const tree = (files: Map<string, string>) => {
    const sha = sha1([...files].sort());
    trees.set(sha, new Map(files));
    return sha;
  };
  const blob = (base64: string) => {
    const sha = sha1(['blob', base64]);
    blobs.set(sha, base64);
    return sha;
  };
  const commit = (treeSha: string, parents: string[], message: string) => {
    const sha = sha1([treeSha, parents, message, nextId++]);
    commits.set(sha, { sha, tree: treeSha, parents, message });
    return sha;
  };
  /** Every commit reachable from `sha`, newest first (by creation, as the fake makes them). */
  const history = (sha: string): string[] => {
    const out = new Set<string>();
    const walk = [sha];
    while (walk.length > 0) {
      const next = walk.shift() as string;
      if (out.has(next)) continue;
      out.add(next);
      walk.push(...commits.get(next)!.parents);
    }
    return [...out];
  };
  const filesOf = (sha: string) => trees.get(commits.get(sha)!.tree)!;
  const changed = (from: Map<string, string> | undefined, to: Map<string, string>) => {
    const paths = new Set([...(from?.keys() ?? []), ...to.keys()]);
    return [...paths].sort().flatMap((filename) => {
      const [a, b] = [from?.get(filename), to.get(filename)];
      if (a === b) return [];
      const status = a === undefined ? 'added' : b === undefined ? 'removed' : 'modified';
      return [{ filename, status, additions: b ? 1 : 0, deletions: a ? 1 : 0, changes: 1 }];
    });
  };
  const restCommit = (repo: Json, sha: string, files = false) => {
    const c = commits.get(sha)!;
    const parent = c.parents[0] as string | undefined;
    return {
      sha,
      html_url: `${repo.html_url}/commit/${sha}`,
      commit: { message: c.message, author: who, committer: who, tree: { sha: c.tree } },
      parents: c.parents.map((p: string) => ({ sha: p })),
      ...(files ? { files: changed(parent ? filesOf(parent) : undefined, filesOf(sha)) } : {}),
    };
  };

  function addRepo(owner: string, name: string) {
    const first = commit(tree(new Map([['README.md', blob(b64('# hello\n'))]])), [], 'Initial');
    const repo: Json = {
      id: nextId++,
      name,
      full_name: `${owner}/${name}`,
      owner: { login: owner },
      private: false,
      archived: false,
      html_url: `https://github.example/${owner}/${name}`,
      default_branch: 'main',
      refs: new Map([['main', first]]),
      pulls: [] as Json[],
      hooks: new Map<number, Json>(),
    };
    repos.set(`${owner}/${name}`.toLowerCase(), repo);
    return repo;
  }

  const resolve = (repo: Json, ref: string) =>
    repo.refs.get(ref.replace(/^(refs\/)?heads\//, '')) ?? (commits.has(ref) ? ref : undefined);

  const notFound: Answer = [404, { message: 'Not Found', documentation_url: DOCS }];
  const invalid = (message: string, errors?: Json[]): Answer => [
    422,
    { message, ...(errors ? { errors } : {}), documentation_url: DOCS },
  ];

  function paged(url: URL, items: unknown[]): Answer {
    const page = Number(url.searchParams.get('page') ?? 1);
    const size = Math.min(PAGE, Number(url.searchParams.get('per_page') ?? 30));
    const link = (n: number, rel: string) => {
      const next = new URL(url);
      next.searchParams.set('page', String(n));
      return `<${next.href}>; rel="${rel}"`;
    };
    const last = Math.max(1, Math.ceil(items.length / size));
    const links = [];
    if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
    if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
    const headers: Record<string, string> = links.length ? { link: links.join(', ') } : {};
    return [200, items.slice((page - 1) * size, page * size), headers];
  }

  function pullOf(repo: Json, p: Json) {
    return {
      number: p.number,
      title: p.title,
      body: p.body ?? null,
      state: p.state,
      head: { ref: p.head, sha: repo.refs.get(p.head) },
      base: { ref: p.base, sha: repo.refs.get(p.base) },
      merged: p.merged,
      merged_at: p.merged ? '2026-01-02T00:00:00Z' : null,
      merge_commit_sha: p.mergeSha ?? null,
      user: { login: 'octocat' },
      html_url: `${repo.html_url}/pull/${p.number}`,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
  }

  const newId = () => nextId++;
  return {
    newId,
    blobs,
    trees,
    commits,
    repos,
    sha1,
    tree,
    blob,
    commit,
    history,
    filesOf,
    changed,
    restCommit,
    addRepo,
    resolve,
    notFound,
    invalid,
    paged,
    pullOf,
  };
}
