import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ZERO = '0'.repeat(40);

/** The git command in a bare repository: stdout, or the error of a non-zero exit. */
export async function gitIn(gitdir: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', ['--git-dir', gitdir, ...args], {
    env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: gitdir },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** Every ref of a repository and the object it points at. */
export async function refsOf(gitdir: string): Promise<Map<string, string>> {
  const out = await gitIn(gitdir, ['for-each-ref', '--format=%(objectname) %(refname)']);
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

export interface RefUpdate {
  ref: string;
  before: string;
  after: string;
}

/** What moved between two snapshots: created (before zero), deleted (after zero) or moved. */
export function updatesBetween(before: Map<string, string>, after: Map<string, string>) {
  const updates: RefUpdate[] = [];
  for (const [ref, sha] of after)
    if (before.get(ref) !== sha) updates.push({ ref, before: before.get(ref) ?? ZERO, after: sha });
  for (const [ref, sha] of before)
    if (!after.has(ref)) updates.push({ ref, before: sha, after: ZERO });
  return updates.sort((a, b) => a.ref.localeCompare(b.ref));
}

export interface PushCommit {
  id: string;
  tree_id: string;
  distinct: boolean;
  message: string;
  timestamp: string;
  author: { name: string; email: string };
  committer: { name: string; email: string };
  added: string[];
  removed: string[];
  modified: string[];
}

const FIELDS = ['%H', '%T', '%an', '%ae', '%cn', '%ce', '%cI', '%B'].join('%x00');

/**
 * The commits a push brought to a ref, oldest first, at most 20 (as GitHub's payload): those
 * reachable from `after` and from none of `known` (what the repository had before).
 */
export async function commitsOf(gitdir: string, after: string, known: string[]) {
  if (after === ZERO) return [];
  const not = [...new Set(known.filter((sha) => sha !== ZERO && sha !== after))];
  const out = await gitIn(gitdir, [
    'log',
    '-n',
    '20',
    '--reverse',
    '--name-status',
    '--no-renames',
    `--format=%x1e${FIELDS}%x00`,
    after,
    ...(not.length > 0 ? ['--not', ...not] : []),
    '--',
  ]);
  return out
    .split('\x1e')
    .filter((part) => part.trim() !== '')
    .map((part): PushCommit => {
      const [id, tree, an, ae, cn, ce, date, message, files = ''] = part.split('\x00');
      const changes = { A: [] as string[], D: [] as string[], M: [] as string[] };
      for (const line of files.split('\n')) {
        const [status, path] = line.split('\t');
        if (path) (changes[status as 'A' | 'D' | 'M'] ?? changes.M).push(path);
      }
      return {
        id,
        tree_id: tree,
        distinct: true,
        message: message.trim(),
        timestamp: date,
        author: { name: an, email: ae },
        committer: { name: cn, email: ce },
        added: changes.A,
        removed: changes.D,
        modified: changes.M,
      };
    });
}

/** Whether moving a ref from `before` to `after` dropped commits (a force push). */
export async function isForced(gitdir: string, before: string, after: string) {
  if (before === ZERO || after === ZERO) return false;
  try {
    await gitIn(gitdir, ['merge-base', '--is-ancestor', before, after]);
    return false;
  } catch {
    return true;
  }
}
