#!/usr/bin/env bash
# Hash aggregation and hash joins inside and beyond work_mem, hearthd
# against PostgreSQL 15 on the same machine with the same settings
# (shared_buffers 128MB). Two tables of ROWS rows (default 1M) are loaded
# the same way into both; then, for work_mem 64kB (both servers spill) and
# 1GB (both stay in memory), the seconds of
#   groupby  GROUP BY over ROWS * 0.9 keys (count, sum, min, max)
#   join     inner hash join of the two tables on a key with duplicates
# (median of RUNS runs, each query after one warm-up run).
#   scripts/bench/hash_spill.sh [RUNS]     (defaults: RUNS=3, ROWS=1000000)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
rows="${ROWS:-1000000}"
work="$(mktemp -d /tmp/hearth-hashspill-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

hport=$(bench_free_port)
pport=$(bench_free_port)
bench_start_hearthd "$work/h" "$hport" -c shared_buffers=128MB || exit 1
bench_start_postgres "$work/p" "$pport" -c shared_buffers=128MB || exit 1

thousands=$(( (rows + 999) / 1000 ))
digits=$(python3 -c 'print(",".join("(%d)" % i for i in range(1000)))')
groups=$(( rows * 9 / 10 ))
for port in "$hport" "$pport"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -v ON_ERROR_STOP=1 <<SQL || exit 1
create table d (x int);
insert into d values $digits;
create table t (k int, v int);
insert into t select (a.x * 1000 + b.x) % $groups, a.x * 1000 + b.x from d a, d b where a.x < $thousands;
create table u (k int, w int);
insert into u select (a.x * 1000 + b.x) / 2, a.x * 1000 + b.x from d a, d b where a.x < $thousands;
SQL
done

declare -A sql=(
  [groupby]="select count(*), sum(c), sum(mn), sum(mx) from (select k, count(*) c, min(v) mn, max(v) mx from t group by k) g"
  [join]="select count(*), sum(t.v::int8 + u.w) from t join u on t.v = u.k"
)

timed() {  # PORT WORK_MEM SQL → seconds (NaN on failure)
  local s e
  psql -X -q -h 127.0.0.1 -p "$1" -U hearth -d hearth -c "set work_mem = '$2'" -c "$3" >/dev/null 2>&1
  s=$(date +%s.%N)
  if ! psql -X -q -h 127.0.0.1 -p "$1" -U hearth -d hearth -v ON_ERROR_STOP=1 -c "set work_mem = '$2'" \
      -c "$3" >/dev/null 2>"$work/err"; then
    echo "  query failed on port $1: $(head -c 200 "$work/err")" >&2
    echo NaN
    return
  fi
  e=$(date +%s.%N)
  awk -v e="$e" -v s="$s" 'BEGIN { printf "%.4f\n", e - s }'
}

tests=()
for mem in 64kB 1GB; do
  for q in groupby join; do
    name="${q}_$mem"
    tests+=("$name")
    for r in $(seq 1 "$runs"); do
      echo "run $r/$runs: $name" >&2
      timed "$hport" "$mem" "${sql[$q]}" >>"$work/h.$name"
      timed "$pport" "$mem" "${sql[$q]}" >>"$work/p.$name"
    done
  done
done
echo "rows=$rows runs=$runs (seconds; ratio = hearthd / PostgreSQL)"
bench_table hearthd postgres "$work/h" "$work/p" "${tests[@]}"
