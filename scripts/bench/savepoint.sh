#!/usr/bin/env bash
# Savepoints (subtransactions), hearthd against PostgreSQL 15 with the same
# settings (fsync on, synchronous_commit off so subtransaction bookkeeping,
# not fsync, dominates), over pgbench's tables at SCALE (default 1). Three
# pgbench scripts of three single-row UPDATEs of pgbench_accounts each,
# CLIENTS clients (default 4), DURATION seconds (default 10), RUNS runs
# (default 3); prints the median tps.
#   plain        BEGIN; the UPDATEs; COMMIT (no savepoint: the baseline)
#   released     each UPDATE inside SAVEPOINT s ... RELEASE s (psql's
#                ON_ERROR_ROLLBACK pattern)
#   rolled_back  the middle UPDATE rolled back to a savepoint
#   scripts/bench/savepoint.sh [RUNS]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
clients="${CLIENTS:-4}"
duration="${DURATION:-10}"
scale="${SCALE:-1}"
work="$(mktemp -d /tmp/hearth-savepoint-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

# One script: the three UPDATEs with `wrap` (a sed program over lines
# "U1".."U3") deciding what surrounds them.
make_script() {  # NAME SED-PROGRAM
  {
    printf '\\set a random(1, %d)\n\\set b random(1, %d)\n\\set c random(1, %d)\nbegin;\n' \
      $((100000 * scale)) $((100000 * scale)) $((100000 * scale))
    printf 'U1\nU2\nU3\n' | sed "$2" |
      sed 's/^U\([123]\)$/update pgbench_accounts set abalance = abalance + 1 where aid = :V\1;/' |
      sed 's/:V1/:a/; s/:V2/:b/; s/:V3/:c/'
    echo 'commit;'
  } >"$work/$1.sql"
}
make_script plain ''
make_script released 's/^U[123]$/savepoint s;\n&\nrelease s;/'
make_script rolled_back 's/^U2$/savepoint s;\n&\nrollback to s;/'
chmod 644 "$work"/*.sql
tests=(plain released rolled_back)

bench_start_pgbench_pair "$work" "$scale" -c fsync=on -c synchronous_commit=off
for r in $(seq 1 "$runs"); do
  echo "run $r/$runs" >&2
  for t in "${tests[@]}"; do
    bench_pgbench "$BENCH_HPORT" "$clients" "$work/log" -T "$duration" -f "$work/$t.sql"; echo "$BENCH_TPS" >>"$work/h.$t"
    bench_pgbench "$BENCH_PPORT" "$clients" "$work/log" -T "$duration" -f "$work/$t.sql"; echo "$BENCH_TPS" >>"$work/p.$t"
  done
done

bench_table hearthd_tps postgres_tps "$work/h" "$work/p" "${tests[@]}"
echo "clients=$clients duration=${duration}s scale=$scale runs=$runs machine=$(nproc) cores $(date -u +%F)"
