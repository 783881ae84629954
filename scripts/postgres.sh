#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests and development, from Debian's `postgresql` package.
#   scripts/postgres.sh start DIR [PORT]   installs the package if missing, starts a server with its
#                                          data under DIR on 127.0.0.1:PORT (default 54329), prints its URL
#   scripts/postgres.sh stop DIR           stops it
# As root the server runs as the `postgres` user (PostgreSQL refuses to run as root).
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?data folder}
port=${3:-54329}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bindir" ] && [ "$cmd" = start ]; then
  apt-get install -y postgresql >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y postgresql >/dev/null; }
  bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case $cmd in
  start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bindir/initdb" -D "$dir/data" -A trust -U lectern -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null
    echo "postgres://lectern@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *)
    echo "usage: $0 start|stop DIR [PORT]" >&2
    exit 2
    ;;
esac
