import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProtectionRow } from '../../database.js';

/**
 * git's own `update` hook, run by receive-pack once per ref after the pack arrived (its objects
 * are at hand in quarantine) and before the ref moves: a refusal rejects that ref alone, and what
 * it prints reaches `git push` as `remote: ...`. It never calls back into the platform: the rules
 * come in PLATFORM_PROTECTED, one line per protected branch, `<ref> <requirePullRequest 0|1>
 * <requiredApprovals>` (ref names hold no spaces or backslashes).
 */
const UPDATE_HOOK = `#!/bin/sh
ref="$1"; old="$2"; new="$3"
zero=0000000000000000000000000000000000000000
rule=$(printf '%s\\n' "$PLATFORM_PROTECTED" | awk -v r="$ref" '$1 == r { print $2, $3; exit }')
[ -z "$rule" ] && exit 0
set -- $rule
branch=\${ref#refs/heads/}
if [ "$new" = "$zero" ]; then
  echo "$branch is a protected branch: it cannot be deleted" >&2; exit 1
fi
if [ "$1" = "1" ]; then
  echo "$branch is a protected branch: changes reach it through a pull request with $2 approval(s), not a push" >&2; exit 1
fi
if [ "$old" != "$zero" ] && ! git merge-base --is-ancestor "$old" "$new"; then
  echo "$branch is a protected branch: force pushes are refused (fetch, merge or rebase, and push again)" >&2; exit 1
fi
exit 0
`;

/** The folder of the platform's hooks (core.hooksPath of pushes), written once per data dir. */
export function hooksDir(dataDir: string): string {
  const dir = join(dataDir, '.platform-hooks');
  const file = join(dir, 'update');
  if (!existsSync(file) || readFileSync(file, 'utf8') !== UPDATE_HOOK) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, UPDATE_HOOK);
  }
  chmodSync(file, 0o755);
  return dir;
}

/** PLATFORM_PROTECTED for a repository's rules. */
export const protectedRules = (rules: ProtectionRow[]) =>
  rules
    .map((r) => `refs/heads/${r.branch} ${r.require_pull_request ? 1 : 0} ${r.required_approvals}`)
    .join('\n');
