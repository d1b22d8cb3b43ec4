#!/usr/bin/env bash
# INSERT ... ON CONFLICT under contention, hearthd against PostgreSQL 15
# with the same settings (fsync on, synchronous_commit off so conflicts,
# not fsync, dominate). Three pgbench scripts, CLIENTS clients (default 4),
# DURATION seconds each (default 10), RUNS runs (default 3); prints the
# median tps. Each run starts from an empty table.
#   hot      counters: DO UPDATE SET n = t.n + 1 on one of HOT (default 4)
#            keys; afterwards sum(n) must equal the transactions pgbench
#            counted (a mismatch is reported: a lost or doubled update)
#   spread   the same on one of ROWS (default 100000) keys: mostly inserts
#            racing for fresh keys at first, then updates
#   nothing  DO NOTHING on one of ROWS keys
#   scripts/bench/upsert.sh [RUNS]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
clients="${CLIENTS:-4}"
duration="${DURATION:-10}"
rows="${ROWS:-100000}"
hot="${HOT:-4}"
work="$(mktemp -d /tmp/hearth-upsert-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

echo "drop table if exists cnt; create table cnt (k int primary key, n int not null);" >"$work/setup.sql"
upsert() {  # RANGE ACTION
  printf '\\set k random(1, %s)\ninsert into cnt values (:k, 1) on conflict (k) %s;\n' "$1" "$2"
}
upsert "$hot" "do update set n = cnt.n + 1" >"$work/hot.sql"
upsert "$rows" "do update set n = cnt.n + 1" >"$work/spread.sql"
upsert "$rows" "do nothing" >"$work/nothing.sql"
chmod 644 "$work"/*.sql
tests=(hot spread nothing)

run_suite() {  # PORT OUTPREFIX NAME
  local port="$1" out="$2" name="$3" t tps txns sum
  for t in "${tests[@]}"; do
    psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -f "$work/setup.sql" >/dev/null 2>&1
    pgbench -n -h 127.0.0.1 -p "$port" -U hearth -c "$clients" -j "$clients" -T "$duration" -f "$work/$t.sql" hearth \
      >"$work/out" 2>"$work/err"
    tps=$(awk '/^tps = / { print $3; exit }' "$work/out")
    [ -n "$tps" ] || { tps=NaN; echo "  $name $t failed: $(head -c 300 "$work/err")" >&2; }
    if [ "$t" != nothing ]; then
      txns=$(awk '/number of transactions actually processed/ { print $NF; exit }' "$work/out")
      sum=$(psql -X -At -h 127.0.0.1 -p "$port" -U hearth -d hearth -c "select coalesce(sum(n), 0) from cnt")
      [ "$txns" = "$sum" ] || echo "  $name $t: sum(n) = $sum but $txns transactions" >&2
    fi
    echo "$tps" >>"$out.$t"
  done
}

hport=$(bench_free_port); pport=$(bench_free_port)
bench_start_hearthd "$work/hearth" "$hport" -c fsync=on -c synchronous_commit=off
bench_start_postgres "$work/pg" "$pport" -c fsync=on -c synchronous_commit=off
for r in $(seq 1 "$runs"); do
  echo "run $r/$runs" >&2
  run_suite "$hport" "$work/h" hearthd
  run_suite "$pport" "$work/p" postgres
done

bench_table hearthd_tps postgres_tps "$work/h" "$work/p" "${tests[@]}"
echo "clients=$clients duration=${duration}s rows=$rows hot=$hot runs=$runs machine=$(nproc) cores $(date -u +%F)"
