import { basename, dirname } from 'node:path';
import type { Identity } from '@platform/core';
import type { RepositoryRow } from '../../database.js';
import { listProtections } from '../../repositories/protections.js';
import { serialised } from '../backends/lock.js';
import type { Pusher } from '../pushes.js';
import type { GitContext } from '../state.js';
import { runHttpBackend, type CgiReply, type CgiRequest } from './cgi.js';
import { hooksDir, protectedRules } from './protect.js';
import { refsOf, updatesBetween } from './refs.js';

export type SmartRequest = Omit<CgiRequest, 'projectRoot' | 'pathInfo' | 'afterExit'> & {
  /** What follows `<repo>.git` in the URL: `/info/refs`, `/git-upload-pack`, `/git-receive-pack`. */
  path: string;
};

/** Where http-backend finds the repository: its parent folder and `/<name>.git<path>`. */
const located = (gitdir: string, path: string) => ({
  projectRoot: dirname(gitdir),
  pathInfo: `/${basename(gitdir)}${path}`,
});

/** A fetch, a clone or a ref advertisement: http-backend as it is. */
export const serveRead = (gitdir: string, request: SmartRequest): Promise<CgiReply> =>
  runHttpBackend({ ...request, ...located(gitdir, request.path) });

/**
 * A push: under the repository's lock (the API's writes wait), the refs read before and after
 * receive-pack, the branch rules handed to git's `update` hook (protect.ts), and one push event
 * per ref that moved, recorded before the reply ends (so `git push` returning means recorded).
 */
export function serveReceive(
  ctx: GitContext,
  repo: RepositoryRow,
  gitdir: string,
  request: SmartRequest,
  pusher: Pusher & { identity: Identity },
): Promise<CgiReply> {
  return new Promise<CgiReply>((resolve, reject) => {
    void serialised(gitdir, async () => {
      let finished!: () => void;
      const done = new Promise<void>((release) => (finished = release));
      try {
        const rules = protectedRules(await listProtections(ctx.db, repo.id));
        const before = await refsOf(gitdir);
        const cgi: CgiRequest = {
          ...request,
          ...located(gitdir, request.path),
          hooks: { dir: hooksDir(ctx.config.dataDir), env: { PLATFORM_PROTECTED: rules } },
          afterExit: async () => {
            try {
              const after = await refsOf(gitdir);
              const updates = updatesBetween(before, after);
              const known = [...before.values()];
              await ctx.state.pushes.record(repo, gitdir, updates, pusher, known, true);
            } catch (error) {
              // The refs could not be read again (git failed): the push stays, unrecorded.
              ctx.log.error({ err: error, repository: repo.name }, 'push not recorded');
            } finally {
              finished();
            }
          },
        };
        runHttpBackend(cgi).then(resolve, (error: unknown) => {
          finished();
          reject(error);
        });
      } catch (error) {
        finished();
        reject(error);
      }
      await done;
    });
  });
}
