import type { ChangedFile, Commit } from '../../schemas/git.js';
import type { Pull } from '../../schemas/pulls.js';

// GitHub's REST answers, as far as this service reads them.
export interface GhCommit {
  sha: string;
  html_url?: string;
  commit: {
    message: string;
    author: { name?: string; email?: string; date?: string } | null;
    committer: { name?: string; email?: string; date?: string } | null;
  };
  parents: Array<{ sha: string }>;
  files?: GhFile[];
}
export interface GhFile {
  filename: string;
  status: string;
  additions?: number;
  deletions?: number;
  previous_filename?: string;
}
export interface GhPull {
  number: number;
  title: string;
  body: string | null;
  state: string;
  head: { ref: string };
  base: { ref: string };
  merged?: boolean;
  merged_at: string | null;
  merge_commit_sha: string | null;
  user: { login: string } | null;
  html_url: string;
  created_at: string;
  updated_at: string;
}

const person = (p: GhCommit['commit']['author']) => ({
  name: p?.name ?? '',
  email: p?.email ?? '',
  date: p?.date ?? '',
});
export const toFile = (f: GhFile): ChangedFile => ({
  path: f.filename,
  status: f.status,
  ...(f.additions === undefined ? {} : { additions: f.additions }),
  ...(f.deletions === undefined ? {} : { deletions: f.deletions }),
  ...(f.previous_filename ? { previousPath: f.previous_filename } : {}),
});
export const toCommit = (c: GhCommit): Commit => ({
  sha: c.sha,
  message: c.commit.message,
  author: person(c.commit.author),
  committer: person(c.commit.committer),
  parents: c.parents.map((p) => p.sha),
  htmlUrl: c.html_url ?? null,
  ...(c.files ? { files: c.files.map(toFile) } : {}),
});
export const toPull = (p: GhPull): Pull => ({
  number: p.number,
  title: p.title,
  body: p.body ?? null,
  state: p.state,
  head: p.head.ref,
  base: p.base.ref,
  merged: p.merged ?? p.merged_at !== null,
  mergeCommitSha: p.merge_commit_sha,
  mergedAt: p.merged_at,
  author: p.user?.login ?? '',
  htmlUrl: p.html_url,
  created: p.created_at,
  updated: p.updated_at,
});
