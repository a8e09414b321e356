#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server from the local binaries (Debian's `postgresql` package) in
# a temporary folder and prints its connection URL on stdout. `stop-temp.sh DIR` stops it.
#   url=$(bash scripts/postgres/start-temp.sh /tmp/wsctx-pg)
# initdb refuses to run as root: as root the server runs as the `postgres` user the package makes.
# fsync is off: the data is a test's and is thrown away.
set -euo pipefail
dir="${1:?usage: start-temp.sh DIR}"  # as root: a folder the postgres user can reach (e.g. directly under /tmp)
bindir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -x "$bindir/initdb" ] || { echo "start-temp.sh: no PostgreSQL server binaries under /usr/lib/postgresql (apt-get install postgresql)" >&2; exit 3; }
as=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "start-temp.sh: running as root and there is no postgres user to run the server as" >&2; exit 3; }
  as=(runuser -u postgres --)
fi
mkdir -p "$dir"
[ ${#as[@]} -eq 0 ] || chown postgres "$dir"
"${as[@]}" "$bindir/initdb" -D "$dir/data" -A trust -U wsctx --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
# The port is drawn just before the start, and drawn again when another program took it in
# between (test files run two at a time, and each may start servers on ports of its own).
for attempt in 1 2 3; do
  port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  # The server's options, for pause-temp.sh to start it again on the same port.
  echo "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" >"$dir/options"
  rm -f "$dir/server.log"
  if "${as[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$(cat "$dir/options")" start >/dev/null; then
    echo "postgresql://wsctx@127.0.0.1:$port/postgres"
    exit 0
  fi
  grep -qE 'could not bind|Address already in use' "$dir/server.log" 2>/dev/null || break
done
cat "$dir/server.log" >&2
exit 1
