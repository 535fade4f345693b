#!/usr/bin/env bash
# The shape of a commit message: a subject of at most 72 characters that says what changed, then,
# if there is more to say (the why, the figures, how to reproduce them), a blank line and a body.
# Usage: scripts/check-commit-message.sh <message file>        (the commit-msg hook)
#        scripts/check-commit-message.sh --range <a>..<b>       (CI: every commit of a change)
# Run `git config core.hooksPath .githooks` once (`npm install` does it) to check on each commit.
set -euo pipefail

problems() { # message on stdin; prints what is wrong with it, one line each
  awk 'NR == 1 && length($0) > 72 { printf "subject is %d characters (at most 72): %s\n", length($0), $0 }
       NR == 1 && $0 ~ /^[[:space:]]*$/ { print "subject is empty" }
       NR == 2 && $0 !~ /^[[:space:]]*$/ { print "line 2 must be blank (subject, blank line, body)" }'
}

if [ "${1:-}" = "--range" ]; then
  range="${2:?usage: $0 --range <from>..<to>}"
  failed=0
  for commit in $(git rev-list --no-merges "$range"); do
    found="$(git log -1 --format=%B "$commit" | problems)"
    if [ -n "$found" ]; then
      printf '%s: %s\n' "$(git log -1 --format=%h "$commit")" "$found" >&2
      failed=1
    fi
  done
  exit "$failed"
fi

# The hook's file may hold git's comment lines (#) after the message: they are not part of it.
found="$(grep -v '^#' "${1:?usage: $0 <message file>}" | problems)"
if [ -n "$found" ]; then
  printf 'commit message: %s\n' "$found" >&2
  exit 1
fi
