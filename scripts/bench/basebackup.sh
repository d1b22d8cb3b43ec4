#!/usr/bin/env bash
# pg_basebackup (PostgreSQL 15's client) against hearthd and against
# PostgreSQL 15, both started by lib.sh with the same settings and holding
# the same data: ROWS rows of the pgbench_accounts shape loaded with \copy,
# then a CHECKPOINT. Each run takes a plain-format backup with WAL streamed
# (-X stream, the default) and a fast checkpoint into a fresh directory,
# synced (pg_basebackup's own fsync) and removed afterwards.
# Printed: median seconds per backup over RUNS runs, the copy's size in MB,
# and hearthd/PostgreSQL for both (time ratio < 1: hearthd faster).
#   scripts/bench/basebackup.sh [RUNS] [ROWS]       (defaults 3 and 1000000)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
rows="${2:-1000000}"
work="$(mktemp -d /tmp/hearth-basebackup-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

python3 - "$work/rows.txt" "$rows" <<'PY'
import sys
pad = " " * 84
with open(sys.argv[1], "w") as f:
    for i in range(1, int(sys.argv[2]) + 1):
        f.write(f"{i}\t{(i - 1) // 100000 + 1}\t0\t{pad}\n")
PY
chmod 644 "$work/rows.txt"

settings=(-c shared_buffers=1GB -c max_wal_size=4GB -c checkpoint_timeout=30min -c wal_level=replica)
hport=$(bench_free_port); pport=$(bench_free_port)
bench_start_hearthd "$work/h" "$hport" "${settings[@]}"
bench_start_postgres "$work/p" "$pport" "${settings[@]}"
for port in "$hport" "$pport"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth \
    -c "create table accounts (aid int primary key, bid int, abalance int, filler char(84))" \
    -c "\\copy accounts from '$work/rows.txt'" -c "checkpoint" >/dev/null
done

# One backup; prints "seconds megabytes".
backup_once() {
  local port="$1" dir="$work/copy" t0 t1
  rm -rf "$dir"
  t0=$(date +%s.%N)
  "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$port" -U hearth -D "$dir" -c fast >/dev/null 2>&1 || { echo "NaN NaN"; return; }
  t1=$(date +%s.%N)
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') $(du -sm "$dir" | cut -f1)"
  rm -rf "$dir"
}

: >"$work/h.secs"; : >"$work/p.secs"
for r in $(seq 1 "$runs"); do
  echo "run $r/$runs" >&2
  read -r hs hmb < <(backup_once "$hport"); echo "$hs" >>"$work/h.secs"
  read -r ps pmb < <(backup_once "$pport"); echo "$ps" >>"$work/p.secs"
done
h=$(bench_median $(cat "$work/h.secs")); p=$(bench_median $(cat "$work/p.secs"))
printf '%-12s %12s %12s %8s\n' "" hearthd postgresql ratio
printf '%-12s %12s %12s %8s\n' seconds "$h" "$p" "$(bench_ratio "$h" "$p")"
printf '%-12s %12s %12s %8s\n' "copy MB" "$hmb" "$pmb" "$(bench_ratio "$hmb" "$pmb")"
