#!/usr/bin/env bash
# Correlated EXISTS over two tables of ROWS rows, against hearthd and
# PostgreSQL 15 started by lib.sh with the same settings: a top-level WHERE
# EXISTS (semi join), NOT EXISTS (anti join) and an EXISTS under OR (a
# hashed subplan), each `inner.k = outer.k`. Both read the inner table once
# per query, not once per outer row. Prints the median milliseconds per
# query over RUNS runs (pgbench -n -t TXNS, one client) and the ratio
# hearthd/PostgreSQL (below 1: hearthd is faster).
#   scripts/bench/semi_join.sh [RUNS] [ROWS]    (defaults 3 and 1000000)
#   HEARTHD=/path/to/hearthd TXNS=2 scripts/bench/semi_join.sh 1 100000
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
rows="${2:-1000000}"
txns="${TXNS:-3}"
work="$(mktemp -d /tmp/hearth-semijoin-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

# o.k covers 0..rows-1; i.k every third value of 0..2*rows, so about a third match.
awk -v n="$rows" 'BEGIN { for (i = 0; i < n; i++) printf "%d\t%d\n", i, (i * 7919) % n }' >"$work/o.tsv"
awk -v n="$rows" 'BEGIN { for (i = 0; i < n; i++) printf "%d\t%d\n", i, (i * 3) % (2 * n) }' >"$work/i.tsv"
echo "select count(*) from o where exists (select 1 from i where i.k = o.k);" >"$work/semi.sql"
echo "select count(*) from o where not exists (select 1 from i where i.k = o.k);" >"$work/anti.sql"
echo "select count(*) from o where exists (select 1 from i where i.k = o.k) or o.id < 10;" >"$work/hashed.sql"
chmod 644 "$work"/*.sql "$work"/*.tsv
workloads=(semi anti hashed)

settings=(-c fsync=off -c shared_buffers=256MB -c work_mem=64MB)
hport=$(bench_free_port); pport=$(bench_free_port)
bench_start_hearthd "$work/hearth" "$hport" "${settings[@]}"
bench_start_postgres "$work/pg" "$pport" "${settings[@]}"
for port in "$hport" "$pport"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth \
    -c 'create table o (id int, k int)' -c 'create table i (id int, k int)' \
    -c "\\copy o from '$work/o.tsv'" -c "\\copy i from '$work/i.tsv'" -c 'vacuum analyze o' -c 'vacuum analyze i' >/dev/null
  # Both must agree before anything is timed.
  for w in "${workloads[@]}"; do
    psql -X -A -t -h 127.0.0.1 -p "$port" -U hearth -d hearth -f "$work/$w.sql"
  done >"$work/check.$port"
done
if ! cmp -s "$work/check.$hport" "$work/check.$pport"; then
  echo "hearthd and PostgreSQL disagree: $(cat "$work/check.$hport") vs $(cat "$work/check.$pport")" >&2
  exit 1
fi

bench_query_rounds "$runs" "$txns" "$hport" "$pport" "$work" "${workloads[@]}"

bench_table hearthd_ms pg15_ms "$work/h" "$work/p" "${workloads[@]}"
echo "rows=$rows, $txns queries per run, runs=$runs (medians), machine=$(nproc) cores, $(date -u +%F)"
