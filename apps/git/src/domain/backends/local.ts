import * as fs from 'node:fs';
import git, { Errors } from 'isomorphic-git';
import { badRequest, conflict, notFound } from '@platform/core';
import type { Branch, Commit, Entry } from '../../schemas/git.js';
import {
  checkPath,
  checkRef,
  encodeContent,
  type Author,
  type GitBackend,
  type NewCommit,
  type RepoMetadata,
} from './backend.js';
import { diff, flatten, toCommit, writeFiles } from './local-tree.js';
import { serialised } from './lock.js';

const HEADS = 'refs/heads/';
const signature = (author: Author) => ({
  ...author,
  timestamp: Math.floor(Date.now() / 1000),
  timezoneOffset: 0,
});

/** A bare repository kept by the platform under GIT_DATA_DIR, through isomorphic-git. */
export function localBackend(gitdir: string, fullName: string) {
  const exists = () => fs.existsSync(gitdir);

  const FULL_SHA = /^[0-9a-f]{40}$/;
  async function resolve(ref: string, what = 'Ref', field = 'ref'): Promise<string> {
    checkRef(ref, field);
    try {
      // Only a sha, HEAD or something under refs/: never another file of the repository.
      const full = FULL_SHA.test(ref) ? ref : await git.expandRef({ fs, gitdir, ref });
      if (!FULL_SHA.test(full) && full !== 'HEAD' && !full.startsWith('refs/'))
        throw new Errors.NotFoundError(ref);
      const oid = await git.resolveRef({ fs, gitdir, ref: full });
      await git.readCommit({ fs, gitdir, oid });
      return oid;
    } catch (error) {
      if (error instanceof Errors.NotFoundError || error instanceof Errors.ObjectTypeError)
        throw notFound(what, `${ref} in ${fullName}`);
      throw error;
    }
  }
  const branchOid = (name: string, field = 'branch') =>
    resolve(`${HEADS}${checkRef(name, field)}`, 'Branch', field);
  const treeOf = async (oid: string) => (await git.readCommit({ fs, gitdir, oid })).commit.tree;
  const history = async (oid: string, depth?: number) =>
    git.log({ fs, gitdir, ref: oid, ...(depth ? { depth } : {}) });

  const backend: GitBackend & {
    create(defaultBranch: string): Promise<void>;
    merge(
      base: string,
      head: string,
      method: string,
      message: string,
      author: Author,
    ): Promise<string>;
  } = {
    async create(defaultBranch) {
      if (exists()) return; // kept from an earlier connection: reconnected as it is
      await git.init({ fs, gitdir, bare: true, defaultBranch });
    },

    async metadata(): Promise<RepoMetadata> {
      const [owner, repoName] = fullName.split('/');
      let defaultBranch = 'main';
      if (exists()) {
        // depth 2: HEAD's content is `ref: refs/heads/<b>`; one step further names the branch.
        const head = await git.resolveRef({ fs, gitdir, ref: 'HEAD', depth: 2 }).catch(() => '');
        if (head.startsWith(HEADS)) defaultBranch = head.slice(HEADS.length);
      }
      const status = exists() ? 'active' : 'missing';
      return { owner, repoName, htmlUrl: null, defaultBranch, private: true, status };
    },

    async listBranches(defaultBranch): Promise<Branch[]> {
      const names = await git.listBranches({ fs, gitdir });
      return Promise.all(
        names.sort().map(async (name) => ({
          name,
          sha: await git.resolveRef({ fs, gitdir, ref: `${HEADS}${name}` }),
          protected: false,
          default: name === defaultBranch,
        })),
      );
    },

    createBranch: (name, from) =>
      serialised(gitdir, async () => {
        checkRef(name, 'name');
        const sha = await resolve(from, 'Ref', 'from');
        try {
          await git.branch({ fs, gitdir, ref: name, object: sha, checkout: false });
        } catch (error) {
          if (error instanceof Errors.AlreadyExistsError)
            throw conflict(`Branch ${name} exists already in ${fullName}`);
          if (error instanceof Errors.InvalidRefNameError)
            throw badRequest(`name ${JSON.stringify(name)} is not a valid branch name`);
          throw error;
        }
        return { name, sha, protected: false, default: false };
      }),

    deleteBranch: (name) =>
      serialised(gitdir, async () => {
        await branchOid(name, 'name');
        await git.deleteRef({ fs, gitdir, ref: `${HEADS}${name}` });
      }),

    async listCommits(ref, limit, offset): Promise<Commit[]> {
      const oid = await resolve(ref);
      return (await history(oid, offset + limit)).slice(offset).map(toCommit);
    },

    async getCommit(sha): Promise<Commit> {
      const oid = await resolve(sha, 'Commit', 'sha');
      const read = await git.readCommit({ fs, gitdir, oid });
      const parent = read.commit.parent[0];
      const before = await flatten(gitdir, parent ? await treeOf(parent) : undefined);
      return { ...toCommit(read), files: diff(before, await flatten(gitdir, read.commit.tree)) };
    },

    createCommit: ({ branch, message, files, author }: NewCommit) =>
      serialised(gitdir, async () => {
        const ref = `${HEADS}${checkRef(branch, 'branch')}`;
        let parent: string | undefined;
        try {
          parent = await git.resolveRef({ fs, gitdir, ref });
        } catch (error) {
          if (!(error instanceof Errors.NotFoundError)) throw error;
          // Only an empty repository takes a first commit on a branch that does not exist yet.
          if ((await git.listBranches({ fs, gitdir })).length > 0)
            throw notFound('Branch', `${branch} in ${fullName}`);
        }
        const before = await flatten(gitdir, parent ? await treeOf(parent) : undefined);
        const after = new Map(before);
        for (const [index, change] of files.entries()) {
          const path = checkPath(change.path, `files[${index}].path`);
          if (change.content === null) {
            if (!after.delete(path))
              throw badRequest(`files[${index}].path ${path} does not exist on ${branch}`);
            continue;
          }
          const blob = Buffer.from(
            change.content,
            change.encoding === 'base64' ? 'base64' : 'utf8',
          );
          const oid = await git.writeBlob({ fs, gitdir, blob });
          after.set(path, { oid, mode: before.get(path)?.mode ?? '100644' });
        }
        const tree = await writeFiles(gitdir, after);
        const stamp = signature(author);
        const oid = await git.writeCommit({
          fs,
          gitdir,
          commit: {
            message: `${message}\n`,
            tree,
            parent: parent ? [parent] : [],
            author: stamp,
            committer: stamp,
          },
        });
        await git.writeRef({ fs, gitdir, ref, value: oid, force: true });
        const read = await git.readCommit({ fs, gitdir, oid });
        return { ...toCommit(read), files: diff(before, after) };
      }),

    async listFiles(path, ref): Promise<Entry[]> {
      const oid = await resolve(ref);
      const filepath = path === '' ? undefined : checkPath(path);
      try {
        const { tree } = await git.readTree({ fs, gitdir, oid, ...(filepath ? { filepath } : {}) });
        return tree.map((entry) => ({
          name: entry.path,
          path: filepath ? `${filepath}/${entry.path}` : entry.path,
          type:
            { tree: 'dir', commit: 'submodule' }[entry.type as string] ??
            (entry.mode === '120000' ? 'symlink' : 'file'),
          sha: entry.oid,
          size: null,
        }));
      } catch (error) {
        if (error instanceof Errors.NotFoundError || error instanceof Errors.ObjectTypeError)
          throw notFound('Directory', `${path} at ${ref}`);
        throw error;
      }
    },

    async getFile(path, ref) {
      const oid = await resolve(ref);
      try {
        const { blob, oid: sha } = await git.readBlob({
          fs,
          gitdir,
          oid,
          filepath: checkPath(path),
        });
        return { path, sha, size: blob.length, ...encodeContent(blob) };
      } catch (error) {
        if (error instanceof Errors.NotFoundError || error instanceof Errors.ObjectTypeError)
          throw notFound('File', `${path} at ${ref}`);
        throw error;
      }
    },

    async compare(base, head) {
      const baseOid = await resolve(base, 'Ref', 'base');
      const headOid = await resolve(head, 'Ref', 'head');
      const [mergeBase] = (await git.findMergeBase({
        fs,
        gitdir,
        oids: [baseOid, headOid],
      })) as string[];
      const [baseLog, headLog] = [await history(baseOid), await history(headOid)];
      const inBase = new Set(baseLog.map((c) => c.oid));
      const inHead = new Set(headLog.map((c) => c.oid));
      const ahead = headLog.filter((c) => !inBase.has(c.oid));
      const behindBy = baseLog.filter((c) => !inHead.has(c.oid)).length;
      const status =
        ahead.length === 0
          ? behindBy === 0
            ? 'identical'
            : 'behind'
          : behindBy === 0
            ? 'ahead'
            : 'diverged';
      const before = await flatten(gitdir, mergeBase ? await treeOf(mergeBase) : undefined);
      return {
        base,
        head,
        mergeBase: mergeBase ?? null,
        status,
        aheadBy: ahead.length,
        behindBy,
        // Oldest first, as GitHub lists them (at most 250, as GitHub does).
        commits: ahead.reverse().slice(0, 250).map(toCommit),
        files: diff(before, await flatten(gitdir, await treeOf(headOid))),
      };
    },

    merge: (base, head, method, message, author) =>
      serialised(gitdir, async () => {
        const [ours, theirs] = [`${HEADS}${base}`, `${HEADS}${head}`];
        const baseOid = await branchOid(base, 'base');
        await branchOid(head, 'head');
        const stamp = signature(author);
        const result = await git
          .merge({
            fs,
            gitdir,
            ours,
            theirs,
            fastForward: false,
            noUpdateBranch: method === 'squash',
            abortOnConflict: true,
            author: stamp,
            committer: stamp,
            message: `${message}\n`,
          })
          .catch((error: unknown) => {
            if (error instanceof Errors.MergeConflictError)
              throw conflict(
                `${head} cannot be merged into ${base}: conflicting changes in ${error.data.filepaths.join(', ')}`,
              );
            if (error instanceof Errors.MergeNotSupportedError)
              throw conflict(`${head} cannot be merged into ${base} here: merge it with git`);
            throw error;
          });
        if (result.alreadyMerged) throw conflict(`${head} has nothing to merge into ${base}`);
        if (method !== 'squash') return result.oid as string;
        const tree = await treeOf(result.oid as string);
        const commit = {
          message: `${message}\n`,
          tree,
          parent: [baseOid],
          author: stamp,
          committer: stamp,
        };
        const oid = await git.writeCommit({ fs, gitdir, commit });
        await git.writeRef({ fs, gitdir, ref: ours, value: oid, force: true });
        return oid;
      }),
  };
  return backend;
}
export type LocalBackend = ReturnType<typeof localBackend>;
