#!/usr/bin/env bash
# jsonb over a table of ROWS documents ({"id": n, "tag": "tN", "vals": [..],
# "nested": {"k": ...}}) loaded with \copy, against hearthd and PostgreSQL
# 15 started by lib.sh with the same settings. Workloads: a `->>` filter, an
# `@>` containment filter, a jsonpath filter (`@?`), GROUP BY of an
# extracted field, and ORDER BY jsonb (the btree order) with LIMIT. Prints
# the median milliseconds per query over RUNS runs (pgbench -n -t TXNS, one
# client) and the ratio hearthd/PostgreSQL (below 1: hearthd is faster).
#   scripts/bench/jsonb.sh [RUNS] [ROWS]          (defaults 3, 200000)
#   HEARTHD=/path/to/hearthd TXNS=2 scripts/bench/jsonb.sh 1 20000
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
rows="${2:-200000}"
txns="${TXNS:-3}"
work="$(mktemp -d /tmp/hearth-jsonb-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

awk -v n="$rows" 'BEGIN { for (i = 1; i <= n; i++)
  printf "{\"id\": %d, \"tag\": \"t%d\", \"vals\": [%d, %d, %d], \"nested\": {\"k\": %d, \"s\": \"x%d\"}}\n",
         i, i % 100, i % 7, i % 11, i % 13, i % 1000, i }' >"$work/docs.txt"
echo "select count(*) from docs where d ->> 'tag' = 't42';" >"$work/field.sql"
echo "select count(*) from docs where d @> '{\"vals\": [3], \"nested\": {\"k\": 7}}';" >"$work/contains.sql"
echo "select count(*) from docs where d @? '\$.vals[*] ? (@ == 5)';" >"$work/path.sql"
echo "select d -> 'nested' -> 'k', count(*) from docs group by 1 order by 2 desc, 1 limit 5;" >"$work/group.sql"
echo "select d from docs order by d desc limit 10;" >"$work/order.sql"
chmod 644 "$work"/*.sql "$work/docs.txt"
workloads=(field contains path group order)

settings=(-c fsync=off -c shared_buffers=256MB -c work_mem=64MB)
hport=$(bench_free_port); pport=$(bench_free_port)
bench_start_hearthd "$work/hearth" "$hport" "${settings[@]}"
bench_start_postgres "$work/pg" "$pport" "${settings[@]}"
for port in "$hport" "$pport"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -c 'create table docs (d jsonb)' \
    -c "\\copy docs from '$work/docs.txt'" -c 'vacuum analyze docs' >/dev/null
  # Both must agree before anything is timed.
  for w in "${workloads[@]}"; do
    psql -X -A -t -h 127.0.0.1 -p "$port" -U hearth -d hearth -f "$work/$w.sql" >>"$work/check.$port"
  done
done
if ! cmp -s "$work/check.$hport" "$work/check.$pport"; then
  echo "hearthd and PostgreSQL disagree:" >&2
  diff "$work/check.$hport" "$work/check.$pport" >&2
  exit 1
fi

run_point() {  # PORT WORKLOAD OUTFILE: appends ms per query (one client: 1000 / tps)
  local port="$1" w="$2" out="$3"
  bench_pgbench "$port" 1 "$work/pgbench.log" -t "$txns" -f "$work/$w.sql"
  awk -v t="$BENCH_TPS" 'BEGIN { if (t == "NaN" || t == 0) print "NaN"; else printf "%.3f\n", 1000 / t }' >>"$out"
}

for r in $(seq 1 "$runs"); do
  for w in "${workloads[@]}"; do
    echo "run $r/$runs: $w" >&2
    run_point "$hport" "$w" "$work/h.$w"
    run_point "$pport" "$w" "$work/p.$w"
  done
done

bench_table hearthd_ms pg15_ms "$work/h" "$work/p" "${workloads[@]}"
echo "rows=$rows, $txns queries per run, runs=$runs (medians), machine=$(nproc) cores, $(date -u +%F)"
