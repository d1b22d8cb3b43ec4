#!/usr/bin/env bash
# Sequence throughput: N clients (default 1 4 16) for T seconds each run
# `select nextval('s')` (pgbench -n -T, one statement per transaction), then
# single-row INSERTs into a table with a bigserial key, against hearthd and
# PostgreSQL 15 started by lib.sh with the same settings. Prints the median
# tps over RUNS runs per point and the ratio hearthd/PostgreSQL.
#   scripts/bench/nextval.sh [RUNS] [SECONDS]     (defaults 3 and 5)
#   CLIENTS="1 8" HEARTHD=/path/to/hearthd scripts/bench/nextval.sh 1 3
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
secs="${2:-5}"
clients="${CLIENTS:-1 4 16}"
work="$(mktemp -d /tmp/hearth-nextval-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

echo "select nextval('s');" >"$work/nextval.sql"
echo 'insert into t (v) values (:client_id);' >"$work/serial.sql"
chmod 644 "$work"/*.sql
workloads=(nextval serial)

settings=(-c fsync=on -c synchronous_commit=on -c max_connections=60)
hport=$(bench_free_port); pport=$(bench_free_port)
bench_start_hearthd "$work/hearth" "$hport" "${settings[@]}"
bench_start_postgres "$work/pg" "$pport" "${settings[@]}"
for port in "$hport" "$pport"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth \
    -c 'create sequence s' -c 'create table t (id bigserial primary key, v int)' >/dev/null
done

run_point() {  # PORT WORKLOAD N OUTFILE: appends tps
  local port="$1" w="$2" n="$3" out="$4" log="$work/pgbench.log" tps
  if ! pgbench -n -h 127.0.0.1 -p "$port" -U hearth -c "$n" -j 2 -T "$secs" -f "$work/$w.sql" hearth >"$log" 2>&1; then
    echo "  pgbench $w failed on port $port with $n clients: $(tail -c 300 "$log")" >&2
    echo NaN >>"$out"
    return
  fi
  tps=$(awk -F'= ' '/^tps = / {split($2, a, " "); print a[1]; exit}' "$log")
  echo "${tps:-NaN}" >>"$out"
}

for r in $(seq 1 "$runs"); do
  for w in "${workloads[@]}"; do
    for n in $clients; do
      echo "run $r/$runs: $w, $n clients" >&2
      run_point "$hport" "$w" "$n" "$work/h.$w.$n"
      run_point "$pport" "$w" "$n" "$work/p.$w.$n"
    done
  done
done

printf '%-8s %-8s %12s %12s %8s\n' workload clients hearthd_tps pg15_tps ratio
for w in "${workloads[@]}"; do
  for n in $clients; do
    ht=$(bench_median $(cat "$work/h.$w.$n")); pt=$(bench_median $(cat "$work/p.$w.$n"))
    ratio=$(bench_ratio "$ht" "$pt")
    printf '%-8s %-8s %12.0f %12.0f %8s\n' "$w" "$n" "$ht" "$pt" "$ratio"
  done
done
echo "T=${secs}s per point, runs=$runs (medians), machine=$(nproc) cores, $(date -u +%F)"
