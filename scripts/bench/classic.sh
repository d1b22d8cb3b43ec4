#!/usr/bin/env bash
# The 1998 PostgreSQL performance suite, hearthd against PostgreSQL 15 on the
# same machine with the same settings (fsync on, synchronous_commit on).
#   1 8192 INSERTs into SIMPLE in one transaction
#   2 8192 INSERTs, each its own transaction
#   3 CREATE INDEX on SIMPLE
#   4 8192 INSERTs with the index, one transaction
#   5 8192 random index scans, one transaction
#   6 ORDER BY over the whole table
# Each test is one `psql -X -q -f` session, timed as a whole; the suite runs
# RUNS times (default 3) and prints the median seconds per test and the
# ratio hearthd/PostgreSQL. SHARED_BUFFERS (default 2048 buffers = 16MB)
# sets both servers' shared_buffers; run it with 256 and 2048+ to check that
# a bigger pool makes nothing slower.
#   scripts/bench/classic.sh [RUNS]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
buffers="${SHARED_BUFFERS:-2048}"
sb="$((buffers * 8))kB"
work="$(mktemp -d /tmp/hearth-classic-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

# The SQL, generated once so both servers get identical input.
python3 - "$work" <<'PY'
import random, sys, os
w = sys.argv[1]
rnd = random.Random(1998)
keys = [rnd.randrange(1, 1 << 30) for _ in range(8192)]
def write(name, lines):
    with open(os.path.join(w, name), "w") as f:
        f.write("\n".join(lines) + "\n")
write("0_setup.sql", ["drop table if exists simple;", "create table simple (k integer, v text);"])
write("1_insert_one_txn.sql", ["begin;"] + [f"insert into simple values ({k}, 'v{k}');" for k in keys] + ["commit;"])
write("2_insert_autocommit.sql", [f"insert into simple values ({k}, 'w{k}');" for k in keys])
write("3_create_index.sql", ["create index simple_k on simple (k);"])
write("4_insert_with_index.sql", ["begin;"] + [f"insert into simple values ({k + 1}, 'x{k}');" for k in keys] + ["commit;"])
write("5_index_scans.sql", ["begin;"] + [f"select v from simple where k = {rnd.choice(keys)};" for _ in range(8192)] + ["commit;"])
write("6_order_by.sql", ["select k, v from simple order by k;"])
PY
chmod 644 "$work"/*.sql
tests=(1_insert_one_txn 2_insert_autocommit 3_create_index 4_insert_with_index 5_index_scans 6_order_by)

run_suite() {  # PORT DB OUTPREFIX
  local port="$1" db="$2" out="$3" t s e
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d "$db" -f "$work/0_setup.sql" >/dev/null 2>&1
  for t in "${tests[@]}"; do
    s=$(date +%s.%N)
    if ! psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d "$db" -v ON_ERROR_STOP=1 -f "$work/$t.sql" >/dev/null 2>"$work/err"; then
      echo "NaN" >>"$out.$t"
      echo "  $t failed: $(head -c 200 "$work/err")" >&2
      continue
    fi
    e=$(date +%s.%N)
    awk -v e="$e" -v s="$s" 'BEGIN { printf "%.3f\n", e - s }' >>"$out.$t"
  done
}

hport=$(bench_free_port); pport=$(bench_free_port)
bench_start_hearthd "$work/hearth" "$hport" -c shared_buffers="$sb" -c fsync=on -c synchronous_commit=on
bench_start_postgres "$work/pg" "$pport" -c shared_buffers="$sb" -c fsync=on -c synchronous_commit=on
for r in $(seq 1 "$runs"); do
  echo "run $r/$runs" >&2
  run_suite "$hport" hearth "$work/h"
  run_suite "$pport" hearth "$work/p"
done

bench_table hearthd_s postgres_s "$work/h" "$work/p" "${tests[@]}"
echo "shared_buffers=$sb runs=$runs machine=$(nproc) cores $(date -u +%F)"
