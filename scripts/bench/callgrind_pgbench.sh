#!/usr/bin/env bash
# Instruction counts of one backend running pgbench, per hearthd binary:
# for each binary, a fresh cluster (`pgbench -i -s 1`, not measured), then
# the server restarted under `valgrind --tool=callgrind` and one pgbench
# client running TXNS transactions of each script: select-only (-S) and
# TPC-B. Prints the backend's total instructions (Ir) per script and per
# transaction. Counts do not depend on machine load, so two builds can be
# compared on a busy machine.
#   scripts/bench/callgrind_pgbench.sh [TXNS] BINARY...      (TXNS default 1000)
#   scripts/bench/callgrind_pgbench.sh 1000 /tmp/before/hearthd build/hearthd
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
txns=1000
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then txns="$1"; shift; fi
[ $# -ge 1 ] || { echo "usage: $0 [TXNS] HEARTHD..." >&2; exit 2; }
work="$(mktemp -d /tmp/hearth-callgrind-XXXXXX)"
trap 'bench_stop_all; rm -rf "$work"' EXIT

# The Ir total of the callgrind file among $1/cg.* written by the process
# that ran the most instructions (the pgbench backend; others are idle).
backend_ir() {
  local best=0 f ir
  for f in "$1"/cg.*; do
    ir="$(grep -m1 -E '^(summary|totals):' "$f" 2>/dev/null | awk '{print $2}')"
    [ -n "$ir" ] && [ "$ir" -gt "$best" ] && best="$ir"
  done
  echo "$best"
}

printf '%-40s %-12s %16s %14s\n' binary script Ir Ir/txn
n=0
for bin in "$@"; do
  n=$((n + 1))
  dir="$work/d$n"
  port="$(bench_free_port)"
  HEARTHD="$bin" bench_start_hearthd "$dir" "$port" || exit 1
  "$PGBIN/pgbench" -q -i -s 1 -h 127.0.0.1 -p "$port" -U hearth hearth >/dev/null 2>&1 || { echo "pgbench -i failed" >&2; exit 1; }
  bench_stop_all
  for script in select-only tpcb; do
    out="$work/cg$n-$script"
    mkdir -p "$out"
    args=(); [ "$script" = select-only ] && args=(-S)
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.%p" "$bin" -D "$dir" -c port="$port" \
      -c listen_addresses=127.0.0.1 -c log_file=server.log -c autovacuum=off >/dev/null 2>&1 &
    vpid=$!
    for _ in $(seq 1 600); do
      psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -c 'select 1' >/dev/null 2>&1 && break
      sleep 0.2
    done
    # The readiness probe's backend writes its file when it exits: wait
    # for it and drop it, so the only backend file left is pgbench's.
    for _ in $(seq 1 120); do
      ls "$out"/cg.* >/dev/null 2>&1 && break
      sleep 0.5
    done
    sleep 1
    rm -f "$out"/cg.*
    "$PGBIN/pgbench" -n -c 1 -t "$txns" "${args[@]}" -h 127.0.0.1 -p "$port" -U hearth hearth >/dev/null 2>&1 ||
      echo "pgbench failed ($script)" >&2
    # The backend's file is written when it exits: wait for it and read it
    # before the shutdown writes the other processes' files.
    ir=0
    for _ in $(seq 1 300); do
      sleep 1
      ir="$(backend_ir "$out")"
      [ "$ir" -gt 0 ] && break
    done
    kill -INT "$vpid" 2>/dev/null
    wait "$vpid" 2>/dev/null
    printf '%-40s %-12s %16s %14s\n' "$bin" "$script" "$ir" "$((ir / txns))"
  done
done
