#!/usr/bin/env bash
# Stops a server started by start-temp.sh and removes its folder.
set -euo pipefail
dir="${1:?usage: stop-temp.sh DIR}"
bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
as=()
[ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
[ -d "$dir/data" ] && "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
rm -rf "$dir"
