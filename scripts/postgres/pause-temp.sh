#!/usr/bin/env bash
# Stops a server started by start-temp.sh without removing its data (`stop`), or starts it again
# on the same port (`start`): how the store's fail-soft test takes PostgreSQL away and back.
#   bash scripts/postgres/pause-temp.sh DIR stop|start
set -euo pipefail
dir="${1:?usage: pause-temp.sh DIR stop|start}"
action="${2:?usage: pause-temp.sh DIR stop|start}"
bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
as=()
[ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
case "$action" in
  stop) "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null ;;
  start) "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$(cat "$dir/options")" start >/dev/null || { cat "$dir/server.log" >&2; exit 1; } ;;
  *) echo "pause-temp.sh: stop or start, not $action" >&2; exit 2 ;;
esac
