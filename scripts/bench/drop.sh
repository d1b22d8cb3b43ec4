#!/usr/bin/env bash
# DDL at scale, hearthd against PostgreSQL 15 on the same machine with the
# same settings (fsync on, synchronous_commit on). For each shared_buffers
# size in SIZES and each table shape (plain: id int primary key + 3 rows;
# idx: the same plus 3 more indexes), TABLES tables are
#   create   created 100 per transaction
#   drop1    dropped one per transaction
#   drop100  created again, then dropped 100 per transaction
# (milliseconds per table, median of RUNS rounds on the same server). Then,
# at the first size:
#   point    pgbench point query on one table with 100 and with 10,000
#            tables in the catalog (tps; the ratio 100/10,000 should be ~1)
#   cycles   CREATE + DROP of one table (autocommit), before and after
#            10,000 create/drop cycles (milliseconds per pair)
#   scripts/bench/drop.sh [RUNS]          (defaults: RUNS=3)
#   TABLES=2000 SIZES="128MB 4GB" POINT_TABLES=10000 CYCLES=10000
# Needs shared memory for both servers at the largest size.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
tables="${TABLES:-2000}"
sizes="${SIZES:-128MB 4GB}"
point_tables="${POINT_TABLES:-10000}"
cycles="${CYCLES:-10000}"
work="$(mktemp -d /tmp/hearth-drop-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

# The SQL, generated once so both servers get identical input.
python3 - "$work" "$tables" "$point_tables" "$cycles" <<'PY'
import os, sys
w, n, point_n, cycles = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def write(name, lines):
    with open(os.path.join(w, name), "w") as f:
        f.write("\n".join(lines) + "\n")
def batches(stmts, per):
    out = []
    for i in range(0, len(stmts), per):
        out += ["begin;"] + stmts[i:i + per] + ["commit;"]
    return out
def create(i, idx):
    s = [f"create table t{i} (id int primary key, a int, b int, c int);",
         f"insert into t{i} values (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3);"]
    if idx:
        s += [f"create index t{i}_a on t{i} (a);", f"create index t{i}_b on t{i} (b);",
              f"create index t{i}_c on t{i} (c);"]
    return s
for shape, idx in (("plain", False), ("idx", True)):
    write(f"{shape}_create.sql", batches([s for i in range(n) for s in create(i, idx)], 100 * (5 if idx else 2)))
write("drop1.sql", [f"drop table t{i};" for i in range(n)])
write("drop100.sql", batches([f"drop table t{i};" for i in range(n)], 100))
write("point_setup_100.sql", ["create table p0 (id int primary key, v int);",
                              "insert into p0 values " + ", ".join(f"({i}, {i})" for i in range(1, 101)) + ";"]
      + batches([f"create table p{i} (id int primary key, v int);" for i in range(1, 100)], 100))
write("point_setup_more.sql",
      batches([f"create table p{i} (id int primary key, v int);" for i in range(100, point_n)], 100))
write("point.sql", ["select v from p0 where id = 42;"])
write("probe.sql", ["create table probe (id int primary key); drop table probe;"] * 100)
write("cycles.sql", batches([s for i in range(cycles) for s in
                             (f"create table c{i} (id int primary key);", f"drop table c{i};")], 200))
PY
chmod 644 "$work"/*.sql

timed() {  # PORT FILE → seconds (NaN on failure)
  local s e
  s=$(date +%s.%N)
  if ! psql -X -q -h 127.0.0.1 -p "$1" -U hearth -d hearth -v ON_ERROR_STOP=1 -f "$work/$2" >/dev/null 2>"$work/err"; then
    echo "  $2 failed: $(head -c 200 "$work/err")" >&2
    echo NaN
    return
  fi
  e=$(date +%s.%N)
  awk -v e="$e" -v s="$s" 'BEGIN { printf "%.4f\n", e - s }'
}
per_item_ms() { awk -v t="$1" -v n="$2" 'BEGIN { if (t == "NaN") print "NaN"; else printf "%.3f\n", t * 1000 / n }'; }
tps() {  # PORT → tps of the point query: the median of three 5 s runs
  local i out=()
  for i in 1 2 3; do
    out+=("$(pgbench -n -h 127.0.0.1 -p "$1" -U hearth -f "$work/point.sql" -T 5 hearth 2>/dev/null |
      awk '/^tps/ { print $3; exit }')")
  done
  bench_median "${out[@]}"
}

printf '%-8s %-6s %-8s %12s %12s %8s\n' size shape cell hearthd_ms postgres_ms ratio
first=1
for size in $sizes; do
  hport=$(bench_free_port); pport=$(bench_free_port)
  bench_start_hearthd "$work/hearth" "$hport" -c shared_buffers="$size" -c fsync=on -c synchronous_commit=on
  bench_start_postgres "$work/pg" "$pport" -c shared_buffers="$size" -c fsync=on -c synchronous_commit=on
  for shape in plain idx; do
    for cell in create drop1 drop100; do rm -f "$work/h.$cell" "$work/p.$cell"; done
    for r in $(seq 1 "$runs"); do
      echo "size $size shape $shape run $r/$runs" >&2
      for side in h p; do
        port=$hport; [ "$side" = p ] && port=$pport
        per_item_ms "$(timed "$port" "${shape}_create.sql")" "$tables" >>"$work/$side.create"
        per_item_ms "$(timed "$port" drop1.sql)" "$tables" >>"$work/$side.drop1"
        timed "$port" "${shape}_create.sql" >/dev/null
        per_item_ms "$(timed "$port" drop100.sql)" "$tables" >>"$work/$side.drop100"
      done
    done
    for cell in create drop1 drop100; do
      h=$(bench_median $(cat "$work/h.$cell")); p=$(bench_median $(cat "$work/p.$cell"))
      printf '%-8s %-6s %-8s %12s %12s %8s\n' "$size" "$shape" "$cell" "$h" "$p" "$(bench_ratio "$h" "$p")"
    done
  done
  if [ "$first" = 1 ]; then
    first=0
    for side in h p; do
      port=$hport; [ "$side" = p ] && port=$pport
      timed "$port" point_setup_100.sql >/dev/null
      echo "$(tps "$port")" >"$work/$side.tps100"
      timed "$port" point_setup_more.sql >/dev/null
      echo "$(tps "$port")" >"$work/$side.tpsmore"
      per_item_ms "$(timed "$port" probe.sql)" 100 >"$work/$side.probe_before"
      timed "$port" cycles.sql >/dev/null
      per_item_ms "$(timed "$port" probe.sql)" 100 >"$work/$side.probe_after"
    done
    echo
    printf '%-34s %12s %12s\n' "" hearthd postgres
    printf '%-34s %12s %12s\n' "point query tps, 100 tables" "$(cat "$work/h.tps100")" "$(cat "$work/p.tps100")"
    printf '%-34s %12s %12s\n' "point query tps, $point_tables tables" "$(cat "$work/h.tpsmore")" "$(cat "$work/p.tpsmore")"
    printf '%-34s %12s %12s\n' "create+drop ms, fresh catalog" "$(cat "$work/h.probe_before")" "$(cat "$work/p.probe_before")"
    printf '%-34s %12s %12s\n' "create+drop ms, after $cycles cycles" "$(cat "$work/h.probe_after")" "$(cat "$work/p.probe_after")"
    echo
  fi
  bench_stop_all
done
echo "tables=$tables runs=$runs machine=$(nproc) cores $(date -u +%F)"
