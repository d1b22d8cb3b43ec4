#!/usr/bin/env bash
# pgbench TPC-B (the built-in "tpcb-like" script) against hearthd and
# PostgreSQL 15, both started by lib.sh with the same settings
# (shared_buffers=1GB, fsync=on, synchronous_commit=on). Each server gets
# `pgbench -i -s SCALE`, then for each client count RUNS runs of T seconds
# (servers alternate within a run). Prints per point the median tps of each
# server and the median WAL bytes per transaction (pg_stat_wal.wal_bytes
# delta / transactions processed), and at the end the sizes of
# pgbench_branches, pgbench_tellers and pgbench_accounts_pkey in pages
# (bloat from dead versions; no manual VACUUM runs between the points,
# autovacuum runs on both servers with its defaults) and, per table, how
# often autovacuum ran and the dead versions left (pg_stat_user_tables).
#   scripts/bench/tpcb.sh [RUNS] [SECONDS] [SCALE]     (defaults 3, 60, 10)
#   CLIENTS="1 16 32" HEARTHD=/path/to/hearthd scripts/bench/tpcb.sh 1 10 1
#   EXTRA_SETTINGS="-c commit_delay=10000 -c commit_siblings=5" scripts/bench/tpcb.sh
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
secs="${2:-60}"
scale="${3:-10}"
clients="${CLIENTS:-1 8 16 32}"
work="$(mktemp -d /tmp/hearth-tpcb-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

# EXTRA_SETTINGS="-c commit_delay=10000 -c commit_siblings=5": more, on both servers.
bench_start_pgbench_pair "$work" "$scale" -c shared_buffers=1GB -c fsync=on -c synchronous_commit=on \
  -c max_connections=60
hport=$BENCH_HPORT; pport=$BENCH_PPORT

sql() {  # PORT SQL
  psql -X -qAt -h 127.0.0.1 -p "$1" -U hearth -d hearth -c "$2"
}

run_point() {  # PORT N OUTPREFIX: appends tps and WAL bytes per transaction
  local port="$1" n="$2" out="$3" w0 w1
  w0=$(sql "$port" 'select wal_bytes from pg_stat_wal')
  if ! bench_pgbench "$port" "$n" "$work/pgbench.log" -T "$secs"; then
    echo NaN >>"$out.tps.$n"; echo NaN >>"$out.wpt.$n"
    return
  fi
  w1=$(sql "$port" 'select wal_bytes from pg_stat_wal')
  echo "$BENCH_TPS" >>"$out.tps.$n"
  bench_per_txn "$w0" "$w1" "$BENCH_TXNS" %.0f >>"$out.wpt.$n"
}

bench_all_points "$runs" "$clients" "$hport" "$pport" "$work/"

printf '%-8s %12s %12s %8s %14s %14s\n' clients hearthd_tps pg15_tps ratio hearthd_wal/tx pg15_wal/tx
for n in $clients; do
  ht=$(bench_median $(cat "$work/h.tps.$n")); pt=$(bench_median $(cat "$work/p.tps.$n"))
  hw=$(bench_median $(cat "$work/h.wpt.$n")); pw=$(bench_median $(cat "$work/p.wpt.$n"))
  ratio=$(bench_ratio "$ht" "$pt")
  printf '%-8s %12.0f %12.0f %8s %14s %14s\n' "$n" "$ht" "$pt" "$ratio" "$hw" "$pw"
done
# Run by run (oldest first): throughput must not fall as dead versions pile up.
for n in $clients; do
  echo "tps by run, $n clients: hearthd $(tr '\n' ' ' <"$work/h.tps.$n")| pg15 $(tr '\n' ' ' <"$work/p.tps.$n")"
done
# Table sizes after all runs, in 8 kB pages.
sizes() {
  sql "$1" "select 'branches=' || pg_relation_size('pgbench_branches') / 8192 || ' tellers=' ||
            pg_relation_size('pgbench_tellers') / 8192 || ' accounts_pkey=' ||
            pg_relation_size('pgbench_accounts_pkey') / 8192"
}
echo "pages after the runs: hearthd $(sizes "$hport"); pg15 $(sizes "$pport")"
# table=autovacuum_count/n_dead_tup
autovacuums() {
  sql "$1" "select relname || '=' || autovacuum_count || '/' || n_dead_tup from pg_stat_user_tables
            order by relname" | tr '\n' ' '
}
echo "autovacuum runs/dead versions: hearthd $(autovacuums "$hport"); pg15 $(autovacuums "$pport")"
echo "scale=$scale, T=${secs}s per point, runs=$runs (medians), machine=$(nproc) cores, $(date -u +%F)"
