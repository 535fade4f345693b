import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A GitHub REST API on localhost, in GitHub's wire format as octokit reads it (docs.github.com/rest
// and @octokit/rest 22): JSON bodies, `authorization: token|bearer <t>`, Link pagination (pages of
// at most PAGE items, whatever per_page asks: clients must follow rel="next"), x-ratelimit-*
// headers on every answer, errors as `{ message, documentation_url, errors? }`. One repository
// per `addRepo`, a real object model (blobs, trees, commits, refs) so that the git data API and
// merges can be checked, pull requests and hooks. `failNext` injects a one-shot answer.

import { b64, DOCS, githubModel, type Answer, type Json } from './fake-github-model';

export { PAGE } from './fake-github-model';
export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: Json | undefined;
}
interface Fault {
  method: string;
  path: RegExp;
  answer?: { status: number; headers?: Record<string, string>; body?: Json };
  before?: () => void;
}

export async function startFakeGithub(token: () => string) {
  const seen: Seen[] = [];
  const faults: Fault[] = [];
  const model = githubModel();
  const { blobs, trees, commits, repos, sha1, tree, blob, commit, history, filesOf, changed } =
    model;
  const { restCommit, addRepo, resolve, notFound, invalid, paged, pullOf } = model;

  function route(method: string, url: URL, body: Json): Answer {
    const m = /^\/repos\/([^/]+)\/([^/]+)(?:\/(.*))?$/.exec(url.pathname);
    const repo = m && repos.get(`${m[1]}/${m[2]}`.toLowerCase());
    if (!m || !repo) return notFound;
    const rest = m[3] ?? '';
    const at = (re: RegExp) => re.exec(decodeURIComponent(rest))?.slice(1);
    let p: string[] | undefined;
    if (method === 'GET' && rest === '') {
      const { refs: _r, pulls: _p, hooks: _h, ...shown } = repo;
      return [200, shown];
    }
    if (method === 'GET' && rest === 'branches') {
      const list = [...repo.refs].map(([name, sha]) => ({
        name,
        commit: { sha },
        protected: name === 'main',
      }));
      return paged(url, list);
    }
    if (method === 'GET' && rest === 'commits') {
      const head = resolve(repo, url.searchParams.get('sha') ?? repo.default_branch);
      if (!head) return notFound;
      return paged(
        url,
        history(head).map((sha) => restCommit(repo, sha)),
      );
    }
    if (method === 'GET' && (p = at(/^commits\/(.+)$/))) {
      const sha = resolve(repo, p[0]);
      return sha ? [200, restCommit(repo, sha, true)] : notFound;
    }
    if (method === 'GET' && (p = at(/^git\/ref\/(.+)$/))) {
      const sha = resolve(repo, p[0]);
      return sha ? [200, { ref: `refs/${p[0]}`, object: { sha, type: 'commit' } }] : notFound;
    }
    if (method === 'POST' && rest === 'git/refs') {
      const name = String(body.ref).replace(/^refs\/heads\//, '');
      if (repo.refs.has(name)) return invalid('Reference already exists');
      if (!commits.has(body.sha)) return invalid('Object does not exist');
      repo.refs.set(name, body.sha);
      return [201, { ref: body.ref, object: { sha: body.sha, type: 'commit' } }];
    }
    if ((method === 'PATCH' || method === 'DELETE') && (p = at(/^git\/refs\/heads\/(.+)$/))) {
      const current = repo.refs.get(p[0]);
      if (!current) return invalid('Reference does not exist');
      if (method === 'DELETE') return (repo.refs.delete(p[0]), [204]);
      if (!body.force && !history(body.sha).includes(current))
        return invalid('Update is not a fast forward');
      repo.refs.set(p[0], body.sha);
      return [200, { ref: `refs/heads/${p[0]}`, object: { sha: body.sha, type: 'commit' } }];
    }
    if (method === 'GET' && (p = at(/^git\/commits\/([0-9a-f]{40})$/))) {
      const c = commits.get(p[0]);
      if (!c) return notFound;
      return [
        200,
        { ...c, tree: { sha: c.tree }, parents: c.parents.map((s: string) => ({ sha: s })) },
      ];
    }
    if (method === 'POST' && rest === 'git/blobs') {
      const base64 = body.encoding === 'base64' ? body.content : b64(body.content);
      return [201, { sha: blob(base64), url: `${url.origin}${url.pathname}` }];
    }
    if (method === 'POST' && rest === 'git/trees') {
      const files = new Map(body.base_tree ? trees.get(body.base_tree) : []);
      for (const entry of body.tree as Json[])
        if (entry.sha === null) files.delete(entry.path);
        else if (!blobs.has(entry.sha)) return invalid('Invalid tree info', [entry.path]);
        else files.set(entry.path, entry.sha);
      return [201, { sha: tree(files), truncated: false, tree: [] }];
    }
    if (method === 'POST' && rest === 'git/commits') {
      if (!trees.has(body.tree)) return invalid('Tree SHA does not exist');
      const sha = commit(body.tree, body.parents, body.message);
      return [201, { sha, tree: { sha: body.tree }, message: body.message }];
    }
    if (method === 'GET' && (p = at(/^contents(?:\/(.*))?$/))) {
      const sha = resolve(repo, url.searchParams.get('ref') ?? repo.default_branch);
      if (!sha) return notFound;
      const files = filesOf(sha);
      const path = p[0] ?? '';
      if (files.has(path)) {
        const content = blobs.get(files.get(path)!)!;
        const size = Buffer.from(content, 'base64').length;
        const name = path.split('/').at(-1);
        // GitHub wraps the base64 at 60 characters.
        const wrapped = content.replace(/.{60}/g, '$&\n');
        const file = { type: 'file', encoding: 'base64', size, name, path, content: wrapped };
        return [200, { ...file, sha: files.get(path) }];
      }
      const prefix = path === '' ? '' : `${path}/`;
      const entries = new Map<string, Json>();
      for (const [file, blobSha] of files) {
        if (!file.startsWith(prefix)) continue;
        const [name, ...deeper] = file.slice(prefix.length).split('/');
        const type = deeper.length > 0 ? 'dir' : 'file';
        const size = type === 'dir' ? 0 : Buffer.from(blobs.get(blobSha)!, 'base64').length;
        entries.set(name, { type, name, path: prefix + name, sha: sha1([file]), size });
      }
      return entries.size > 0 ? [200, [...entries.values()]] : notFound;
    }
    if (method === 'GET' && (p = at(/^compare\/(.+)\.\.\.(.+)$/))) {
      const [base, head] = [resolve(repo, p[0]), resolve(repo, p[1])];
      if (!base || !head) return notFound;
      const ahead = history(head).filter((s) => !history(base).includes(s));
      const behind = history(base).filter((s) => !history(head).includes(s));
      const mergeBase = history(head).find((s) => history(base).includes(s))!;
      const status =
        ahead.length && behind.length
          ? 'diverged'
          : ahead.length
            ? 'ahead'
            : behind.length
              ? 'behind'
              : 'identical';
      return [
        200,
        {
          status,
          ahead_by: ahead.length,
          behind_by: behind.length,
          total_commits: ahead.length,
          merge_base_commit: restCommit(repo, mergeBase),
          commits: ahead.reverse().map((s) => restCommit(repo, s)),
          files: changed(filesOf(mergeBase), filesOf(head)),
        },
      ];
    }
    if (method === 'GET' && rest === 'pulls') {
      const state = url.searchParams.get('state') ?? 'open';
      const list = repo.pulls.filter((x: Json) => state === 'all' || x.state === state);
      return paged(
        url,
        [...list].reverse().map((x: Json) => pullOf(repo, x)),
      );
    }
    if (method === 'POST' && rest === 'pulls') {
      const [head, base] = [repo.refs.get(body.head), repo.refs.get(body.base)];
      if (!head || !base)
        return invalid('Validation Failed', [
          { resource: 'PullRequest', field: 'head', code: 'invalid' },
        ]);
      if (history(base).includes(head))
        return invalid('Validation Failed', [
          {
            resource: 'PullRequest',
            code: 'custom',
            message: `No commits between ${body.base} and ${body.head}`,
          },
        ]);
      const pull = { number: repo.pulls.length + 1, ...body, state: 'open', merged: false };
      repo.pulls.push(pull);
      return [201, pullOf(repo, pull)];
    }
    const pull = (p = at(/^pulls\/(\d+)(\/merge)?$/)) && repo.pulls[Number(p[0]) - 1];
    if (p && !pull) return notFound;
    if (method === 'GET' && p && !p[1]) return [200, pullOf(repo, pull)];
    if (method === 'PUT' && p?.[1]) {
      if (pull.state !== 'open') return [405, { message: 'Pull Request is not mergeable' }];
      const [base, head] = [repo.refs.get(pull.base), repo.refs.get(pull.head)];
      const sha = commit(commits.get(head)!.tree, [base, head], body.commit_title ?? 'Merge');
      repo.refs.set(pull.base, sha);
      Object.assign(pull, { state: 'closed', merged: true, mergeSha: sha });
      return [200, { sha, merged: true, message: 'Pull Request successfully merged' }];
    }
    if (method === 'POST' && rest === 'hooks') {
      const hook = { id: model.newId(), type: 'Repository', name: body.name, active: body.active };
      repo.hooks.set(hook.id, { ...hook, events: body.events, config: body.config });
      const config = { ...body.config, secret: '********' };
      return [201, { ...hook, events: body.events, config }];
    }
    if (method === 'DELETE' && (p = at(/^hooks\/(\d+)$/)))
      return repo.hooks.delete(Number(p[0])) ? [204] : notFound;
    return notFound;
  }

  let remaining = 5000;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Json) : undefined;
      const method = req.method ?? 'GET';
      seen.push({
        method,
        path: url.pathname,
        query: url.searchParams,
        authorization: req.headers.authorization,
        body,
      });
      const reset = String(Math.floor(Date.now() / 1000) + 3600);
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=utf-8',
        'x-github-api-version-selected': '2022-11-28',
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': String(--remaining),
        'x-ratelimit-reset': reset,
        'x-ratelimit-resource': 'core',
      };
      let answer: Answer;
      const given = (req.headers.authorization ?? '').replace(/^(token|bearer) /i, '');
      const fault = faults.findIndex((f) => f.method === method && f.path.test(url.pathname));
      const hit = fault >= 0 ? faults.splice(fault, 1)[0] : undefined;
      hit?.before?.();
      if (given !== token())
        answer = [401, { message: 'Bad credentials', documentation_url: DOCS }];
      else if (hit?.answer) answer = [hit.answer.status, hit.answer.body, hit.answer.headers];
      else answer = route(method, url, body ?? {});
      const [status, payload, extra] = answer;
      res.writeHead(status, { ...headers, ...extra });
      res.end(payload === undefined ? undefined : JSON.stringify(payload));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    repos,
    commits,
    filesOf,
    addRepo,
    blobText: (sha: string) => Buffer.from(blobs.get(sha)!, 'base64').toString('utf8'),
    /** The next request of `method` on a path matching `path` gets `answer` (or runs `before`). */
    failNext: (fault: Fault) => faults.push(fault),
    /** A commit on `branch` made by someone else (another client pushing meanwhile). */
    push: (repo: Json, branch: string, path: string, text: string) => {
      const parent = repo.refs.get(branch);
      const files = new Map(filesOf(parent));
      files.set(path, blob(b64(text)));
      repo.refs.set(branch, commit(tree(files), [parent], `push ${path}`));
      return repo.refs.get(branch) as string;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
export type FakeGithub = Awaited<ReturnType<typeof startFakeGithub>>;
