#!/usr/bin/env bash
# Commit throughput and fsyncs per commit: N clients (default 1 4 16 32)
# each committing single-row INSERTs for T seconds (pgbench -n -T, custom
# script `insert into t values (:client_id, 1);`), against hearthd and
# PostgreSQL 15 started by lib.sh with the same settings (fsync=on,
# synchronous_commit=on, commit_delay=0). For each point it prints the
# median over RUNS runs of commits/s (pgbench tps) and of WAL syncs per
# commit (pg_stat_wal.wal_sync delta / transactions processed, on both
# servers), and, as the physical limit for one client, pg_test_fsync's
# fdatasync rate on the same file system.
#   scripts/bench/commit.sh [RUNS] [SECONDS]     (defaults 3 and 5)
#   CLIENTS="1 16" HEARTHD=/path/to/hearthd scripts/bench/commit.sh 1 5
#   SLOW_WAL_FSYNC_MS=5 EXTRA_SETTINGS="-c commit_delay=2000 -c commit_siblings=5" \
#     CLIENTS=16 scripts/bench/commit.sh 1 5     (slow disk, see lib.sh)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
secs="${2:-5}"
clients="${CLIENTS:-1 4 16 32}"
work="$(mktemp -d /tmp/hearth-commit-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

echo 'insert into t values (:client_id, 1);' >"$work/insert.sql"
chmod 644 "$work/insert.sql"

# Physical limit: one 8 kB write + fdatasync per op, on the file system the
# servers' data directories use.
fsync_limit=$("$PGBIN/pg_test_fsync" -s 2 -f "$work/fsync.probe" 2>/dev/null |
  awk '/Compare file sync methods using one 8kB write/ {on=1} on && $1 == "fdatasync" {print $2; exit}')
fsync_limit="${fsync_limit:-n/a}"

settings=(-c fsync=on -c synchronous_commit=on -c commit_delay=0 -c max_connections=60)
read -ra extra <<<"${EXTRA_SETTINGS:-}"  # e.g. "-c commit_delay=2000 -c commit_siblings=5" (later -c wins)
settings+=("${extra[@]}")
hport=$(bench_free_port); pport=$(bench_free_port)
bench_start_hearthd "$work/hearth" "$hport" "${settings[@]}"
bench_start_postgres "$work/pg" "$pport" "${settings[@]}"
for port in "$hport" "$pport"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -c 'create table t (c int, v int)' >/dev/null
done

wal_sync() {  # PORT
  psql -X -qAt -h 127.0.0.1 -p "$1" -U hearth -d hearth -c 'select wal_sync from pg_stat_wal'
}

run_point() {  # PORT N OUTPREFIX: appends tps and syncs/commit
  local port="$1" n="$2" out="$3" s0 s1
  s0=$(wal_sync "$port")
  if ! bench_pgbench "$port" "$n" "$work/pgbench.log" -T "$secs" -f "$work/insert.sql"; then
    echo NaN >>"$out.tps.$n"; echo NaN >>"$out.spc.$n"
    return
  fi
  s1=$(wal_sync "$port")
  echo "$BENCH_TPS" >>"$out.tps.$n"
  bench_per_txn "$s0" "$s1" "$BENCH_TXNS" %.3f >>"$out.spc.$n"
}

bench_all_points "$runs" "$clients" "$hport" "$pport" "$work/"

printf '%-8s %12s %12s %8s %12s %12s\n' clients hearthd_tps pg15_tps ratio hearthd_spc pg15_spc
for n in $clients; do
  ht=$(bench_median $(cat "$work/h.tps.$n")); pt=$(bench_median $(cat "$work/p.tps.$n"))
  hs=$(bench_median $(cat "$work/h.spc.$n")); ps=$(bench_median $(cat "$work/p.spc.$n"))
  ratio=$(bench_ratio "$ht" "$pt")
  printf '%-8s %12.0f %12.0f %8s %12s %12s\n' "$n" "$ht" "$pt" "$ratio" "$hs" "$ps"
done
echo "spc = WAL syncs per commit; pg_test_fsync fdatasync limit: $fsync_limit ops/s"
echo "T=${secs}s per point, runs=$runs (medians), machine=$(nproc) cores, $(date -u +%F)"
