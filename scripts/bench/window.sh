#!/usr/bin/env bash
# Window functions inside and beyond work_mem, hearthd against PostgreSQL 15
# on the same machine with the same settings (shared_buffers 128MB). One
# table of ROWS rows (default 1M) in 100 partitions is loaded the same way
# into both; then, for work_mem 64kB (partitions spill) and 1GB (in
# memory), the seconds of
#   running   sum() OVER (PARTITION BY g ORDER BY i) — the default frame
#   ranking   row_number/rank/dense_rank OVER (PARTITION BY g ORDER BY v)
#   sliding   avg() OVER (ORDER BY i ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING)
#   offsets   lag/lead OVER (PARTITION BY g ORDER BY i)
# (median of RUNS runs, each query after one warm-up run).
#   scripts/bench/window.sh [RUNS]     (defaults: RUNS=3, ROWS=1000000)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
rows="${ROWS:-1000000}"
work="$(mktemp -d /tmp/hearth-window-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

hport=$(bench_free_port)
pport=$(bench_free_port)
bench_start_hearthd "$work/h" "$hport" -c shared_buffers=128MB || exit 1
bench_start_postgres "$work/p" "$pport" -c shared_buffers=128MB || exit 1

thousands=$(( (rows + 999) / 1000 ))
digits=$(python3 -c 'print(",".join("(%d)" % i for i in range(1000)))')
for port in "$hport" "$pport"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -v ON_ERROR_STOP=1 <<SQL || exit 1
create table d (x int);
insert into d values $digits;
create table t (i int, g int, v int);
insert into t select a.x * 1000 + b.x, (a.x * 1000 + b.x) % 100, ((a.x * 1000 + b.x) * 7919) % 100003
  from d a, d b where a.x < $thousands;
SQL
done

declare -A sql=(
  [running]="select count(*), sum(s) from (select sum(v) over (partition by g order by i) s from t) w"
  [ranking]="select sum(r1), sum(r2), sum(r3) from (select row_number() over w r1, rank() over w r2, dense_rank() over w r3 from t window w as (partition by g order by v)) w"
  [sliding]="select sum(a) from (select avg(v) over (order by i rows between 5 preceding and 5 following) a from t) w"
  [offsets]="select sum(coalesce(l, 0) + coalesce(n, 0)) from (select lag(v) over w l, lead(v, 2) over w n from t window w as (partition by g order by i)) w"
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
  for q in running ranking sliding offsets; do
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
