#!/usr/bin/env bash
# COPY FROM throughput, hearthd against PostgreSQL 15 started side by side
# by lib.sh with the same settings (shared_buffers=1GB, max_wal_size=4GB;
# wal_level=replica, or minimal with max_wal_senders=0 for the bypass case).
# Each case loads ROWS rows with psql's \copy from a file generated once:
#   narrow          pgbench_accounts shape (aid, bid, abalance, char(84)) into
#                   a table created by an earlier transaction
#   wide            20 columns (ints, numerics, text, dates) likewise
#   minimal_same_tx narrow, CREATE TABLE + COPY in one transaction under
#                   wal_level=minimal (no heap WAL: synced at commit)
#   btree           narrow into a table with a primary key
#   two_concurrent  two narrow COPYs into two tables at once (rows/s of both)
# Printed per case, medians over RUNS runs (a fresh table each run):
# rows/s of both servers and their ratio, WAL bytes per row
# (pg_stat_wal.wal_bytes delta), and the pool pages the loaded table holds
# afterwards (pg_buffercache; "n/a" where the server lacks it), and for
# hearthd the loader's waits for a WAL flush before writing a page
# (hearth_stat_commit.backend_wal_flush_waits delta; PostgreSQL has no such
# counter).
#   scripts/bench/copy.sh [RUNS] [ROWS]          (defaults 3 and 1000000)
#   CASES="narrow btree" HEARTHD=/path/to/hearthd scripts/bench/copy.sh 1 100000
#   EXTRA_RELATIONS=20000 CASES=narrow scripts/bench/copy.sh   (a large catalog)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
rows="${2:-1000000}"
cases="${CASES:-narrow wide minimal_same_tx btree two_concurrent}"
work="$(mktemp -d /tmp/hearth-copy-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

python3 - "$work" "$rows" <<'PY'
import os, sys
w, n = sys.argv[1], int(sys.argv[2])
pad = " " * 84
with open(os.path.join(w, "narrow.txt"), "w") as f:
    for i in range(1, n + 1):
        f.write(f"{i}\t{(i - 1) // 100000 + 1}\t0\t{pad}\n")
with open(os.path.join(w, "wide.txt"), "w") as f:
    for i in range(1, n + 1):
        f.write("\t".join([str(i), str(i * 7), str(i % 1000), f"{i * 3}.25", f"name-{i}",
                           f"2026-{i % 12 + 1:02d}-{i % 28 + 1:02d}", str(-i), "t" if i % 2 else "f",
                           f"description of row {i} with some words", str(i % 97), f"{i % 10000}.5",
                           f"city{i % 500}", str(i * 11), "x" * (i % 40), str(i % 3), f"{i}.125",
                           f"code-{i % 77}", str(i * 13), "2026-06-01", str(i % 5)]) + "\n")
PY
chmod 644 "$work"/*.txt
narrow_cols="aid int not null, bid int, abalance int, filler char(84)"
wide_cols="c1 int, c2 bigint, c3 int, c4 numeric, c5 text, c6 date, c7 int, c8 boolean, c9 text, c10 int,
  c11 numeric, c12 text, c13 bigint, c14 text, c15 int, c16 numeric, c17 text, c18 bigint, c19 date, c20 int"

common=(-c shared_buffers=1GB -c max_wal_size=4GB -c checkpoint_timeout=30min)
replica=("${common[@]}" -c wal_level=replica)
minimal=("${common[@]}" -c wal_level=minimal -c max_wal_senders=0)
hrep=$(bench_free_port); prep=$(bench_free_port); hmin=$(bench_free_port); pmin=$(bench_free_port)
bench_start_hearthd "$work/h-replica" "$hrep" "${replica[@]}"
bench_start_postgres "$work/p-replica" "$prep" "${replica[@]}"
if [[ " $cases " == *" minimal_same_tx "* ]]; then
  bench_start_hearthd "$work/h-minimal" "$hmin" "${minimal[@]}"
  bench_start_postgres "$work/p-minimal" "$pmin" "${minimal[@]}"
fi
for port in "$prep" "$pmin"; do
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -c 'create extension if not exists pg_buffercache' \
    >/dev/null 2>&1
done
# EXTRA_RELATIONS=N: load with N relations already in the catalog (N/2
# tables with a primary key each), on every server, before the first case.
if [ "${EXTRA_RELATIONS:-0}" -gt 0 ]; then
  python3 -c "
n = ${EXTRA_RELATIONS} // 2
for b in range(0, n, 100):
    print('begin;')
    for i in range(b, min(n, b + 100)): print(f'create table extra_{i} (id int primary key);')
    print('commit;')" >"$work/extra.sql"
  for port in "$hrep" "$prep" "$hmin" "$pmin"; do
    psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -f "$work/extra.sql" >/dev/null 2>&1 || true
  done
fi

q() { psql -X -qAt -h 127.0.0.1 -p "$1" -U hearth -d hearth -c "$2" 2>/dev/null; }
wal_bytes() { q "$1" 'select wal_bytes from pg_stat_wal'; }
flush_waits() { q "$1" 'select backend_wal_flush_waits from hearth_stat_commit'; }
pool_pages() {  # PORT TABLE
  local v
  v=$(q "$1" "select count(*) from pg_buffercache where relfilenode = pg_relation_filenode('$2')")
  echo "${v:-n/a}"
}

# One load: PORT CASE OUTPREFIX. Appends rows/s, WAL bytes/row, pool pages.
run_case() {
  local port="$1" c="$2" out="$3" file=narrow cols="$narrow_cols" pre="" s e w0 w1 loaded="$rows"
  case "$c" in
    wide) file=wide; cols="$wide_cols" ;;
    btree) cols="$narrow_cols, primary key (aid)" ;;
  esac
  q "$port" "drop table if exists t1; drop table if exists t2" >/dev/null
  if [ "$c" != minimal_same_tx ]; then
    q "$port" "create table t1 ($cols)" >/dev/null
    q "$port" "create table t2 ($cols)" >/dev/null
  fi
  w0=$(wal_bytes "$port")
  f0=$(flush_waits "$port")
  s=$(date +%s.%N)
  case "$c" in
    minimal_same_tx)
      printf 'begin;\ncreate table t1 (%s);\n\\copy t1 from %s\ncommit;\n' "$cols" "$work/$file.txt" |
        psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U hearth -d hearth >/dev/null 2>"$work/err" ;;
    two_concurrent)
      psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U hearth -d hearth \
        -c "\\copy t1 from $work/$file.txt" >/dev/null 2>"$work/err" &
      local bg=$!
      psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U hearth -d hearth \
        -c "\\copy t2 from $work/$file.txt" >/dev/null 2>>"$work/err"
      wait "$bg"
      loaded=$((rows * 2)) ;;
    *)
      psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U hearth -d hearth \
        -c "\\copy t1 from $work/$file.txt" >/dev/null 2>"$work/err" ;;
  esac
  e=$(date +%s.%N)
  w1=$(wal_bytes "$port")
  f1=$(flush_waits "$port")
  if [ -s "$work/err" ]; then echo "  $c on port $port: $(head -c 300 "$work/err")" >&2; fi
  awk -v e="$e" -v s="$s" -v n="$loaded" 'BEGIN { printf "%.0f\n", n / (e - s) }' >>"$out.rps"
  awk -v a="$w0" -v b="$w1" -v n="$loaded" 'BEGIN { printf "%.1f\n", (b - a) / n }' >>"$out.wpr"
  pool_pages "$port" t1 >>"$out.pool"
  if [ -n "$f0" ] && [ -n "$f1" ]; then echo $((f1 - f0)) >>"$out.fw"; else echo n/a >>"$out.fw"; fi
}

for r in $(seq 1 "$runs"); do
  for c in $cases; do
    echo "run $r/$runs: $c" >&2
    if [ "$c" = minimal_same_tx ]; then hp="$hmin"; pp="$pmin"; else hp="$hrep"; pp="$prep"; fi
    run_case "$hp" "$c" "$work/h.$c"
    run_case "$pp" "$c" "$work/p.$c"
  done
done

med() { if grep -q 'n/a' "$1"; then echo n/a; else bench_median $(cat "$1"); fi; }
printf '%-16s %12s %12s %6s %10s %10s %8s %8s %8s\n' case hearthd_rps pg15_rps ratio h_walB/r pg_walB/r h_pool pg_pool h_flushw
for c in $cases; do
  hr=$(med "$work/h.$c.rps"); pr=$(med "$work/p.$c.rps")
  ratio=$(bench_ratio "$hr" "$pr")
  printf '%-16s %12s %12s %6s %10s %10s %8s %8s %8s\n' "$c" "$hr" "$pr" "$ratio" "$(med "$work/h.$c.wpr")" \
    "$(med "$work/p.$c.wpr")" "$(med "$work/h.$c.pool")" "$(med "$work/p.$c.pool")" "$(med "$work/h.$c.fw")"
done
echo "rows=$rows per COPY, runs=$runs (medians), machine=$(nproc) cores, $(date -u +%F)"
