import { badRequest, conflict } from '@platform/core';
import type { Branch, Entry } from '../../schemas/git.js';
import type { MergeResult } from '../../schemas/pulls.js';
import {
  checkPath,
  checkRef,
  encodeContent,
  type GitBackend,
  type NewCommit,
  type RepoMetadata,
} from './backend.js';
import { mapped } from './errors.js';
import {
  toCommit,
  toFile,
  toPull,
  type GhCommit,
  type GhFile,
  type GhPull,
} from './github-types.js';
import type { Octokit } from './octokit.js';

/** A repository on GitHub (or GitHub Enterprise), through octokit with a delegated token. */
export function githubBackend(octokit: Octokit, owner: string, repo: string) {
  const at = { owner, repo };
  const name = `${owner}/${repo}`;

  /** Up to `offset + limit` items of a paginated list (Link rel="next"), then the page asked for. */
  async function page<T>(route: string, params: object, limit: number, offset: number) {
    const items: T[] = [];
    const want = offset + limit;
    const pages = octokit.paginate.iterator(route as 'GET /repos/{owner}/{repo}/branches', {
      ...at,
      ...params,
      per_page: Math.min(100, want),
    });
    for await (const { data } of pages) {
      items.push(...(data as unknown as T[]));
      if (items.length >= want) break;
    }
    return items.slice(offset, want);
  }

  const backend: GitBackend = {
    metadata: () =>
      mapped(`repository ${name}`, async (): Promise<RepoMetadata> => {
        const { data } = await octokit.repos.get(at);
        return {
          owner: data.owner.login,
          repoName: data.name,
          htmlUrl: data.html_url,
          defaultBranch: data.default_branch,
          private: data.private,
          status: data.archived ? 'archived' : 'active',
        };
      }),

    listBranches: (defaultBranch) =>
      mapped(`branches of ${name}`, async (): Promise<Branch[]> => {
        const all = await octokit.paginate(octokit.repos.listBranches, { ...at, per_page: 100 });
        return all.map((b) => ({
          name: b.name,
          sha: b.commit.sha,
          protected: b.protected,
          default: b.name === defaultBranch,
        }));
      }),

    createBranch: (branch, from) =>
      mapped(`branch ${branch} of ${name}`, async () => {
        checkRef(branch, 'name');
        const sha = /^[0-9a-f]{40}$/.test(checkRef(from, 'from'))
          ? from
          : (await octokit.repos.getCommit({ ...at, ref: from })).data.sha;
        await octokit.git
          .createRef({ ...at, ref: `refs/heads/${branch}`, sha })
          .catch((e: { status?: number; message?: string }) => {
            if (e.status === 422 && /already exists/i.test(e.message ?? ''))
              throw conflict(`Branch ${branch} exists already in ${name}`);
            throw e;
          });
        return { name: branch, sha, protected: false, default: false };
      }),

    deleteBranch: (branch) =>
      mapped(`branch ${branch} of ${name}`, async () => {
        await octokit.git.deleteRef({ ...at, ref: `heads/${checkRef(branch, 'name')}` });
      }),

    listCommits: (ref, limit, offset) =>
      mapped(`commits of ${name} at ${ref}`, async () =>
        (
          await page<GhCommit>(
            'GET /repos/{owner}/{repo}/commits',
            { sha: checkRef(ref, 'branch') },
            limit,
            offset,
          )
        ).map(toCommit),
      ),

    getCommit: (sha) =>
      mapped(`commit ${sha} of ${name}`, async () =>
        toCommit(
          (await octokit.repos.getCommit({ ...at, ref: checkRef(sha, 'sha') })).data as GhCommit,
        ),
      ),

    // The git data API: blobs, one tree on the branch's tree, one commit, then the ref moved
    // without force, so a branch that moved meanwhile refuses it (409) and nothing shows.
    createCommit: ({ branch, message, files }: NewCommit) =>
      mapped(`commit on ${branch} of ${name}`, async () => {
        const { data: ref } = await octokit.git.getRef({
          ...at,
          ref: `heads/${checkRef(branch, 'branch')}`,
        });
        const parent = ref.object.sha;
        const { data: head } = await octokit.git.getCommit({ ...at, commit_sha: parent });
        const tree = [];
        for (const [index, file] of files.entries()) {
          const path = checkPath(file.path, `files[${index}].path`);
          if (file.content === null) {
            tree.push({ path, mode: '100644' as const, type: 'blob' as const, sha: null });
            continue;
          }
          const encoding = file.encoding === 'base64' ? 'base64' : 'utf-8';
          const { data: blob } = await octokit.git.createBlob({
            ...at,
            content: file.content,
            encoding,
          });
          tree.push({ path, mode: '100644' as const, type: 'blob' as const, sha: blob.sha });
        }
        const { data: newTree } = await octokit.git.createTree({
          ...at,
          base_tree: head.tree.sha,
          tree,
        });
        const { data: commit } = await octokit.git.createCommit({
          ...at,
          message,
          tree: newTree.sha,
          parents: [parent],
        });
        await octokit.git
          .updateRef({ ...at, ref: `heads/${branch}`, sha: commit.sha, force: false })
          .catch((e: { status?: number; message?: string }) => {
            // GitHub's 422 "Update is not a fast forward": someone pushed meanwhile.
            if (e.status === 422 && /fast.forward/i.test(e.message ?? ''))
              throw conflict(
                `${branch} of ${name} moved while the commit was made: nothing was committed; try again`,
              );
            throw e;
          });
        return toCommit(
          (await octokit.repos.getCommit({ ...at, ref: commit.sha })).data as GhCommit,
        );
      }),

    listFiles: (path, ref) =>
      mapped(`directory ${path || '/'} of ${name} at ${ref}`, async (): Promise<Entry[]> => {
        const { data } = await octokit.repos.getContent({ ...at, path, ref: checkRef(ref) });
        if (!Array.isArray(data))
          throw badRequest(`path ${path} is a file: read it at /files/${path}`);
        return data.map((e) => ({
          name: e.name,
          path: e.path,
          type: e.type,
          sha: e.sha,
          size: e.type === 'dir' ? null : e.size,
        }));
      }),

    getFile: (path, ref) =>
      mapped(`file ${path} of ${name} at ${ref}`, async () => {
        const { data } = await octokit.repos.getContent({ ...at, path, ref: checkRef(ref) });
        if (Array.isArray(data) || data.type !== 'file' || !('content' in data))
          throw badRequest(`path ${path} is not a file: list it at /files?path=${path}`);
        const bytes = Buffer.from(data.content, 'base64');
        return { path: data.path, sha: data.sha, size: data.size, ...encodeContent(bytes) };
      }),

    compare: (base, head) =>
      mapped(`comparison ${base}...${head} of ${name}`, async () => {
        const { data } = await octokit.repos.compareCommitsWithBasehead({
          ...at,
          basehead: `${checkRef(base, 'base')}...${checkRef(head, 'head')}`,
        });
        return {
          base,
          head,
          mergeBase: data.merge_base_commit?.sha ?? null,
          status: data.status,
          aheadBy: data.ahead_by,
          behindBy: data.behind_by,
          commits: (data.commits as GhCommit[]).map(toCommit),
          files: ((data.files ?? []) as GhFile[]).map(toFile),
        };
      }),
  };

  const pulls = {
    list: (state: string, limit: number, offset: number) =>
      mapped(`pull requests of ${name}`, async () =>
        (await page<GhPull>('GET /repos/{owner}/{repo}/pulls', { state }, limit, offset)).map(
          toPull,
        ),
      ),
    create: (input: { title: string; body?: string; head: string; base: string }) =>
      mapped(`new pull request of ${name}`, async () => {
        checkRef(input.head, 'head');
        checkRef(input.base, 'base');
        return toPull((await octokit.pulls.create({ ...at, ...input })).data as GhPull);
      }),
    get: (number: number) =>
      mapped(`pull request #${number} of ${name}`, async () =>
        toPull((await octokit.pulls.get({ ...at, pull_number: number })).data as GhPull),
      ),
    merge: (number: number, method: 'merge' | 'squash' | 'rebase', message?: string) =>
      mapped(`merge of pull request #${number} of ${name}`, async (): Promise<MergeResult> => {
        const { data } = await octokit.pulls.merge({
          ...at,
          pull_number: number,
          merge_method: method,
          ...(message ? { commit_title: message } : {}),
        });
        return { merged: data.merged, sha: data.sha, message: data.message };
      }),
  };

  const hooks = {
    create: (url: string, secret: string, events: readonly string[]) =>
      mapped(`webhook of ${name}`, async () => {
        const { data } = await octokit.repos.createWebhook({
          ...at,
          name: 'web',
          active: true,
          events: [...events],
          config: { url, content_type: 'json', secret, insecure_ssl: '0' },
        });
        return String(data.id);
      }),
    delete: (hookId: string) =>
      mapped(`webhook ${hookId} of ${name}`, async () => {
        await octokit.repos
          .deleteWebhook({ ...at, hook_id: Number(hookId) })
          .catch((e: { status?: number }) => {
            if (e.status !== 404) throw e; // gone at GitHub already: forgotten here too
          });
      }),
  };
  return { ...backend, pulls, hooks };
}
export type GithubBackend = ReturnType<typeof githubBackend>;
