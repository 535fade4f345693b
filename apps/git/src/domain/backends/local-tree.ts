import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { badRequest } from '@platform/core';
import type { ChangedFile, Commit } from '../../schemas/git.js';

/** Every file of a tree by its full path: its blob id and mode. */
export type Files = Map<string, { oid: string; mode: string }>;

export async function flatten(gitdir: string, treeOid: string | undefined): Promise<Files> {
  const files: Files = new Map();
  if (!treeOid) return files;
  async function walk(oid: string, prefix: string) {
    const { tree } = await git.readTree({ fs, gitdir, oid });
    for (const entry of tree) {
      const path = prefix + entry.path;
      if (entry.type === 'tree') await walk(entry.oid, `${path}/`);
      else files.set(path, { oid: entry.oid, mode: entry.mode });
    }
  }
  await walk(treeOid, '');
  return files;
}

/** Writes the trees of `files` bottom-up (what GitHub's createTree does) and answers the root's id. */
export async function writeFiles(gitdir: string, files: Files): Promise<string> {
  const here: Array<{ mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }> =
    [];
  const dirs = new Map<string, Files>();
  for (const [path, entry] of files) {
    const slash = path.indexOf('/');
    if (slash < 0) {
      here.push({ ...entry, path, type: entry.mode === '160000' ? 'commit' : 'blob' });
      continue;
    }
    const dir = path.slice(0, slash);
    if (!dirs.has(dir)) dirs.set(dir, new Map());
    dirs.get(dir)!.set(path.slice(slash + 1), entry);
  }
  for (const [name, sub] of dirs) {
    if (here.some((e) => e.path === name))
      throw badRequest(`files: ${name} is a file and a directory at once`);
    here.push({ mode: '040000', path: name, oid: await writeFiles(gitdir, sub), type: 'tree' });
  }
  return git.writeTree({ fs, gitdir, tree: here });
}

/** What changed from `before` to `after`, by path. */
export function diff(before: Files, after: Files): ChangedFile[] {
  const changes: ChangedFile[] = [];
  for (const [path, entry] of after) {
    const old = before.get(path);
    if (!old) changes.push({ path, status: 'added' });
    else if (old.oid !== entry.oid || old.mode !== entry.mode)
      changes.push({ path, status: 'modified' });
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push({ path, status: 'removed' });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

type ReadCommit = Awaited<ReturnType<typeof git.readCommit>>;

const person = (p: ReadCommit['commit']['author']) => ({
  name: p.name,
  email: p.email,
  date: new Date(p.timestamp * 1000).toISOString(),
});

export const toCommit = ({ oid, commit }: ReadCommit): Commit => ({
  sha: oid,
  message: commit.message.replace(/\n$/, ''),
  author: person(commit.author),
  committer: person(commit.committer ?? commit.author),
  parents: commit.parent,
  htmlUrl: null,
});
