#!/usr/bin/env bash
# scripts/bench/tpcb_callgrind.sh — instructions per TPC-B transaction of one
# backend, counted by callgrind (so machine load does not change the figure).
# Usage: scripts/bench/tpcb_callgrind.sh [HEARTHD] [TXNS]
#   HEARTHD defaults to build/hearthd, TXNS to 500. Initialises a scale-1
#   pgbench database with the server running normally, restarts it under
#   `valgrind --tool=callgrind` (children traced: each backend writes its own
#   file), runs `pgbench -n -c 1 -t TXNS`, and prints the pgbench backend's
#   instruction total and the total divided by TXNS.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
HEARTHD="${1:-$root/build/hearthd}"
TXNS="${2:-500}"
work="$(mktemp -d /tmp/tpcb-callgrind-XXXXXX)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
wait_ready() {
  for _ in $(seq 1 600); do
    psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -c 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "hearthd did not start" >&2; exit 1
}
"$HEARTHD" init -D "$work/data" >/dev/null
"$HEARTHD" -D "$work/data" -c port="$port" -c listen_addresses=127.0.0.1 -c autovacuum=off &
pid=$!
wait_ready
pgbench -q -i -s 1 -h 127.0.0.1 -p "$port" -U hearth hearth >/dev/null 2>&1
kill "$pid"; wait "$pid" || true
mkdir "$work/cg"
valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/cg/cg.%p" \
  "$HEARTHD" -D "$work/data" -c port="$port" -c listen_addresses=127.0.0.1 -c autovacuum=off \
  >"$work/valgrind.log" 2>&1 &
pid=$!
wait_ready
pgbench -n -c 1 -t "$TXNS" -h 127.0.0.1 -p "$port" -U hearth hearth >/dev/null
kill "$pid"; wait "$pid" || true
pid=""
# The pgbench backend: the largest file that appeared during the run.
best=0
for f in "$work"/cg/cg.*; do
  n="$(grep -m1 '^summary:' "$f" | awk '{print $2}')"
  [ -n "$n" ] && [ "$n" -gt "$best" ] && best="$n"
done
echo "backend instructions: $best"
echo "per transaction: $((best / TXNS))"
