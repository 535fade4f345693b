import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PREFIX = '/api/v1/git';

/** A temporary directory, removed by the returned function. */
export function tempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The `git` command line, as a user of the repository runs it. */
export const gitCli = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd },
  }).trim();

/** `git clone` of a bare repository into `<into>/<name>`; answers the clone's directory. */
export function cloneOf(gitdir: string, into: string, name: string) {
  gitCli(into, 'clone', '-q', gitdir, name);
  return join(into, name);
}
