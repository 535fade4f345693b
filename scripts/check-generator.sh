#!/usr/bin/env bash
# CI: keeps `npm run new-service` from rotting. In a throwaway copy of the repository (its committed
# and working files, without node_modules, .data, dist, .nx), it installs from the lock file,
# checks that bad input is refused (exit code 2, nothing written), generates a service, and checks
# that the result builds (its web UI too), lints, is formatted, that the regenerated client matches the routes (every
# one with an operationId) and passes Redocly, and that the service passes its own tests and the
# gateway's deployment test (compose, Dockerfiles, README agree). Exits non-zero on any failure.
# Usage: scripts/check-generator.sh [name]   (default: widgets)
set -euo pipefail
export CI=true NX_DAEMON=false NX_NO_CLOUD=true REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true

repo="$(cd "$(dirname "$0")/.." && pwd)"
name="${1:-widgets}"
title="$(tr '[:lower:]' '[:upper:]' <<<"${name:0:1}")${name:1}"
started=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/check-generator.XXXXXX")"
trap 'rm -rf "$work"' EXIT
step() { echo "== $* ($((SECONDS - started)) s)"; }

step "copying $repo to $work"
if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked and untracked files, minus what .gitignore excludes and what was deleted.
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done |
    tar --null --no-recursion -T - -cf -) | tar -xf - -C "$work"
else
  tar -C "$repo" --exclude=node_modules --exclude=.data --exclude=dist --exclude=.nx \
    --exclude=.git --exclude='*.tsbuildinfo' -cf - . | tar -xf - -C "$work"
fi
cd "$work"

# The repository's own install and build, when it has them (CI ran `npm ci` and `tsc -b` on the
# same lock file and sources just before): a copy takes seconds where a new install took a minute
# and a whole build another, and `tsc -b` then builds only what the generator changed.
# CHECK_GENERATOR_CLEAN=1 installs from the lock file instead, as a new clone would.
if [ -d "$repo/node_modules" ] && [ -z "${CHECK_GENERATOR_CLEAN:-}" ]; then
  step "node_modules and build outputs copied from $repo"
  # Hard links where the copy is on the same file system (2 s where copying 1.2 GB took 29):
  # what the generator's `npm install` adds (its workspace's link) is a new entry of the copy's
  # own directories; the one file npm rewrites in place, its record of the tree, is copied.
  if cp -al "$repo/node_modules" node_modules 2>/dev/null; then
    cp --remove-destination "$repo/node_modules/.package-lock.json" node_modules/
  else
    rm -rf node_modules && cp -a "$repo/node_modules" node_modules
  fi
  (cd "$repo" && find apps libs -mindepth 2 -maxdepth 2 -name dist -print0 |
    tar --null -T - -cf -) | tar -xf -
else
  step "npm ci"
  npm ci --no-audit --no-fund --prefer-offline --loglevel=error
fi

step "bad input is refused, and it and --dry-run write nothing"
# The npm script once the root package.json has it, else the script itself.
if grep -q '"new-service":' package.json; then
  generate=(npm run --silent new-service --)
else
  generate=(node scripts/new-service.mjs)
fi
existing="$(find apps -mindepth 3 -maxdepth 3 -path '*/src/main.ts' ! -path 'apps/gateway/*' |
  head -1 | cut -d/ -f2)"
# Every path and every file's content outside node_modules.
snapshot() {
  find . -path ./node_modules -prune -o -print | LC_ALL=C sort | cksum
  find . -path ./node_modules -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 cat | cksum
}
# The files the generator edits to wire a service in.
wiring() {
  ls apps
  cat package.json package-lock.json tsconfig.json tsconfig.test.json docker-compose.yml README.md \
    apps/gateway/package.json apps/gateway/tsconfig.json apps/gateway/src/services.ts | cksum
}
before="$(snapshot)"
wired_before="$(wiring)"
# A refusal is exit code 2 (InputError); 0 is accepting bad input, anything else a crash.
for args in "Bad_Name --title X" "gateway --title X" "$name" "$name --title X --port 3000" \
  "$name --title X --timestamps when" "${existing:-gateway} --title X" "$name two --title X" \
  "$name --title X --no-such-option"; do
  code=0
  # shellcheck disable=SC2086 # each line is a list of arguments
  output="$("${generate[@]}" $args 2>&1)" || code=$?
  if [ "$code" != 2 ] || ! grep -q '^new-service: ' <<<"$output"; then
    printf 'new-service %s: exit code %s, not a refusal (2 and a message):\n%s\n' \
      "$args" "$code" "$output" >&2
    exit 1
  fi
  [ "$(snapshot)" = "$before" ] || { echo "the refused new-service $args changed files" >&2; exit 1; }
done
"${generate[@]}" "$name" --title "$title" --dry-run >/dev/null
[ "$(snapshot)" = "$before" ] || { echo "new-service --dry-run changed files" >&2; exit 1; }

step "new-service $name --title $title"
"${generate[@]}" "$name" --title "$title"
[ "$(wiring)" != "$wired_before" ] || { echo "new-service wired nothing in" >&2; exit 1; }

step "npx tsc -b"
npx tsc -b

step "the client matches the routes (npm run client:check), Redocly (npm run lint:api)"
npm run --silent client:check
npm run --silent lint:api

step "its web UI typechecks against the regenerated client and builds"
npx tsc -p tsconfig.web.json
npx nx run "@platform/$name:build:web" --output-style=static
test -f "apps/$name/web/dist/index.html"

step "eslint and prettier on apps/$name and the files it edited"
npx nx show projects >/dev/null # the project graph that @nx/enforce-module-boundaries reads
npx eslint "apps/$name" apps/gateway/src/services.ts
npx prettier --check "apps/$name" tsconfig.json tsconfig.test.json \
  docker-compose.yml README.md apps/gateway/package.json apps/gateway/tsconfig.json \
  apps/gateway/src/services.ts

step "jest: apps/$name and apps/gateway/test/deployment.test.ts"
node --experimental-vm-modules node_modules/jest/bin/jest.js "apps/$name/" \
  apps/gateway/test/deployment.test.ts

step "ok"
