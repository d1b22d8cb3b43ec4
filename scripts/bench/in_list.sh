#!/usr/bin/env bash
# Long IN lists: `select count(*) from t where v in (c1, ..., cN)` (and NOT
# IN) over a table of ROWS rows, against hearthd and PostgreSQL 15 started by
# lib.sh with the same settings. Both hash a list of 9 or more constants, so
# each row costs one lookup, not N comparisons. Prints the median
# milliseconds per query over RUNS runs (pgbench -n -t TXNS, one client) and
# the ratio hearthd/PostgreSQL (below 1: hearthd is faster).
#   scripts/bench/in_list.sh [RUNS] [ROWS] [ITEMS]    (defaults 3, 1000000, 10000)
#   HEARTHD=/path/to/hearthd TXNS=2 scripts/bench/in_list.sh 1 100000 1000
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
rows="${2:-1000000}"
items="${3:-10000}"
txns="${TXNS:-3}"
work="$(mktemp -d /tmp/hearth-inlist-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

# Values 0..rows-1 scattered over the rows; the list hits about `items` of them.
awk -v n="$rows" 'BEGIN { for (i = 1; i <= n; i++) printf "%d\t%d\n", i, (i * 7919) % n }' >"$work/t.tsv"
list=$(awk -v k="$items" -v n="$rows" 'BEGIN { s = ""; for (i = 0; i < k; i++) s = s (i ? ", " : "") int(i * n / k); print s }')
echo "select count(*) from t where v in ($list);" >"$work/in.sql"
echo "select count(*) from t where v not in ($list);" >"$work/not_in.sql"
chmod 644 "$work"/*.sql "$work/t.tsv"
workloads=(in not_in)

settings=(-c fsync=off -c shared_buffers=256MB -c work_mem=64MB)
hport=$(bench_free_port); pport=$(bench_free_port)
bench_start_hearthd "$work/hearth" "$hport" "${settings[@]}"
bench_start_postgres "$work/pg" "$pport" "${settings[@]}"
for port in "$hport" "$pport"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -c 'create table t (id int, v int)' \
    -c "\\copy t from '$work/t.tsv'" -c 'vacuum analyze t' >/dev/null
  # Both must agree before anything is timed.
  psql -X -A -t -h 127.0.0.1 -p "$port" -U hearth -d hearth -f "$work/in.sql" >"$work/check.$port"
done
if ! cmp -s "$work/check.$hport" "$work/check.$pport"; then
  echo "hearthd and PostgreSQL disagree: $(cat "$work/check.$hport") vs $(cat "$work/check.$pport")" >&2
  exit 1
fi

bench_query_rounds "$runs" "$txns" "$hport" "$pport" "$work" "${workloads[@]}"

bench_table hearthd_ms pg15_ms "$work/h" "$work/p" "${workloads[@]}"
echo "rows=$rows items=$items, $txns queries per run, runs=$runs (medians), machine=$(nproc) cores, $(date -u +%F)"
