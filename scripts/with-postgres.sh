#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL server: a new cluster in a temporary folder, on a
# free loopback port, stopped and removed afterwards. The command gets DATABASE_URL.
#   scripts/with-postgres.sh npm test
set -euo pipefail

find_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && { echo "$dir"; return; }
  done
  command -v initdb >/dev/null 2>&1 && dirname "$(command -v initdb)"
}

bin=$(find_bin || true)
if [ -z "$bin" ]; then
  echo "with-postgres: PostgreSQL binaries (initdb, pg_ctl) not found; install postgresql" >&2
  exit 1
fi

work=$(mktemp -d /tmp/platform-pg.XXXXXX)
port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")

# PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user.
as_owner() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  chown postgres "$work"
  as_owner() { runuser -u postgres -- "$@"; }
fi

stop() {
  as_owner "$bin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop EXIT

as_owner "$bin/initdb" -D "$work/data" -U postgres -A trust --no-sync -E UTF8 >/dev/null
as_owner "$bin/pg_ctl" -D "$work/data" -l "$work/server.log" -w -t 60 \
  -o "-p $port -k $work -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null || { cat "$work/server.log" >&2; exit 1; }

echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2
DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" "$@"
