# scripts/bench/lib.sh — shared helpers for the benchmarks: start a
# throwaway hearthd and a throwaway PostgreSQL 15 on free loopback ports with
# the same settings, and stop both on exit. Source it; do not run it.
#   bench_start_hearthd DIR PORT [-c k=v ...]
#   bench_start_postgres DIR PORT [-c k=v ...]
#   bench_stop_all
#   bench_start_pgbench_pair WORK SCALE [-c k=v ...]   both servers (plus
#       EXTRA_SETTINGS) on free ports BENCH_HPORT / BENCH_PPORT, each with
#       `pgbench -i -s SCALE`; exits the script when an init fails
#   SLOW_WAL_FSYNC_MS=N (environment): both servers run with the
#       slow_wal_fsync.c shim preloaded, so every WAL fsync/fdatasync first
#       sleeps N ms — a slow disk, without any server setting
#   bench_median N1 N2 ...   prints the median of its arguments
#   bench_ratio H P           prints H / P to two places ("n/a" if either is NaN or P is 0)
#   bench_per_txn A B TXNS FMT   prints (B - A) / TXNS with printf FMT (NaN if TXNS is 0)
#   bench_all_points RUNS "CLIENTS" HPORT PPORT PREFIX   calls the script's
#       run_point PORT N PREFIX{h,p} for every run and client count, hearthd first
#   bench_pgbench PORT N LOG [pgbench args]   one pgbench -n run of N clients;
#       sets BENCH_TPS and BENCH_TXNS (false and NaN/0 when it failed)
#   bench_table HCOL PCOL HPREFIX PPREFIX TEST...
#                            per test the medians of HPREFIX.TEST and
#                            PPREFIX.TEST (one figure a line) and hearthd/PostgreSQL
set -u
BENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HEARTHD="${HEARTHD:-$BENCH_ROOT/build/hearthd}"
PGBIN="${PGBIN:-/usr/lib/postgresql/15/bin}"
BENCH_PIDS=()
BENCH_PG_DIRS=()

# The slow-disk shim, built once per script run when SLOW_WAL_FSYNC_MS is set.
BENCH_PRELOAD=()
if [ -n "${SLOW_WAL_FSYNC_MS:-}" ]; then
  BENCH_SHIM_DIR="$(mktemp -d /tmp/hearth-shim-XXXXXX)"
  chmod 755 "$BENCH_SHIM_DIR"
  cc -O2 -shared -fPIC -o "$BENCH_SHIM_DIR/slow_wal_fsync.so" "$BENCH_ROOT/scripts/bench/slow_wal_fsync.c" -ldl ||
    { echo "could not build the slow-fsync shim" >&2; exit 1; }
  chmod 755 "$BENCH_SHIM_DIR/slow_wal_fsync.so"
  BENCH_PRELOAD=(env "LD_PRELOAD=$BENCH_SHIM_DIR/slow_wal_fsync.so" "SLOW_WAL_FSYNC_MS=$SLOW_WAL_FSYNC_MS")
fi

bench_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

bench_start_hearthd() {
  local dir="$1" port="$2"; shift 2
  rm -rf "$dir"
  "$HEARTHD" init -D "$dir" >/dev/null
  "${BENCH_PRELOAD[@]}" "$HEARTHD" -D "$dir" -c port="$port" -c listen_addresses=127.0.0.1 -c log_file=server.log "$@" &
  BENCH_PIDS+=($!)
  for _ in $(seq 1 100); do
    psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -c 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "hearthd did not start" >&2
  return 1
}

# PostgreSQL refuses to run as root: the cluster belongs to the postgres user.
bench_start_postgres() {
  local dir="$1" port="$2"; shift 2
  local opts="-p $port -k /tmp -c listen_addresses=127.0.0.1"
  local kv
  for kv in "$@"; do [ "$kv" = "-c" ] || opts="$opts -c $kv"; done
  rm -rf "$dir"
  local as=""
  [ "$(id -u)" -eq 0 ] && as="runuser -u postgres --"
  mkdir -p "$dir" && [ -n "$as" ] && chown postgres "$dir"
  $as "$PGBIN/initdb" -D "$dir" -A trust -U hearth >/dev/null
  $as "${BENCH_PRELOAD[@]}" "$PGBIN/pg_ctl" -D "$dir" -o "$opts" -l "$dir/server.log" -w start >/dev/null
  BENCH_PG_DIRS+=("$dir")
  psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d postgres -c 'create database hearth' >/dev/null
}

bench_stop_all() {
  local p d as=""
  for p in "${BENCH_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  [ "$(id -u)" -eq 0 ] && as="runuser -u postgres --"
  for d in "${BENCH_PG_DIRS[@]}"; do $as "$PGBIN/pg_ctl" -D "$d" -m fast stop >/dev/null 2>&1; done
  BENCH_PIDS=()
  BENCH_PG_DIRS=()
}

bench_start_pgbench_pair() {
  local work="$1" scale="$2" port extra
  shift 2
  read -ra extra <<<"${EXTRA_SETTINGS:-}"
  BENCH_HPORT=$(bench_free_port); BENCH_PPORT=$(bench_free_port)
  bench_start_hearthd "$work/hearth" "$BENCH_HPORT" "$@" "${extra[@]}"
  bench_start_postgres "$work/pg" "$BENCH_PPORT" "$@" "${extra[@]}"
  for port in "$BENCH_HPORT" "$BENCH_PPORT"; do
    if ! pgbench -i -q -s "$scale" -h 127.0.0.1 -p "$port" -U hearth hearth >"$work/init.log" 2>&1; then
      echo "pgbench -i failed on port $port: $(tail -c 400 "$work/init.log")" >&2
      exit 1
    fi
  done
}

bench_table() {
  local hcol="$1" pcol="$2" hpre="$3" ppre="$4" t h p ratio
  shift 4
  printf '%-22s %12s %12s %8s\n' test "$hcol" "$pcol" ratio
  for t in "$@"; do
    h=$(bench_median $(cat "$hpre.$t"))
    p=$(bench_median $(cat "$ppre.$t"))
    ratio=$(bench_ratio "$h" "$p")
    printf '%-22s %12s %12s %8s\n' "$t" "$h" "$p" "$ratio"
  done
}

bench_median() {
  printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'
}

bench_pgbench() {
  local port="$1" n="$2" log="$3"; shift 3
  BENCH_TPS=NaN; BENCH_TXNS=0
  if ! pgbench -n -h 127.0.0.1 -p "$port" -U hearth -c "$n" -j 2 "$@" hearth >"$log" 2>&1; then
    echo "  pgbench failed on port $port with $n clients: $(tail -c 300 "$log")" >&2
    return 1
  fi
  BENCH_TPS=$(awk -F'= ' '/^tps = / {split($2, a, " "); print a[1]; exit}' "$log")
  BENCH_TXNS=$(awk -F': ' '/number of transactions actually processed/ {split($2, a, "/"); print a[1]; exit}' "$log")
  BENCH_TPS="${BENCH_TPS:-NaN}"; BENCH_TXNS="${BENCH_TXNS:-0}"
}

# One client running TXNS copies of SQLFILE through pgbench: appends the
# milliseconds per query (1000 / tps) to OUT.
bench_ms_per_query() {  # PORT SQLFILE TXNS LOG OUT
  bench_pgbench "$1" 1 "$4" -t "$3" -f "$2"
  awk -v t="$BENCH_TPS" 'BEGIN { if (t == "NaN" || t == 0) print "NaN"; else printf "%.3f\n", 1000 / t }' >>"$5"
}

# RUNS rounds of every workload W (WORK/W.sql) against hearthd then
# PostgreSQL: milliseconds per query appended to WORK/h.W and WORK/p.W.
bench_query_rounds() {  # RUNS TXNS HPORT PPORT WORK WORKLOAD...
  local runs="$1" txns="$2" hport="$3" pport="$4" work="$5" r w
  shift 5
  for r in $(seq 1 "$runs"); do
    for w in "$@"; do
      echo "run $r/$runs: $w" >&2
      bench_ms_per_query "$hport" "$work/$w.sql" "$txns" "$work/pgbench.log" "$work/h.$w"
      bench_ms_per_query "$pport" "$work/$w.sql" "$txns" "$work/pgbench.log" "$work/p.$w"
    done
  done
}

bench_per_txn() {
  awk -v a="$1" -v b="$2" -v t="$3" -v f="$4" 'BEGIN { if (t > 0) printf f "\n", (b - a) / t; else print "NaN" }'
}

bench_all_points() {
  local runs="$1" clients="$2" hport="$3" pport="$4" prefix="$5" r n
  for r in $(seq 1 "$runs"); do
    for n in $clients; do
      echo "run $r/$runs: $n clients" >&2
      run_point "$hport" "$n" "${prefix}h"
      run_point "$pport" "$n" "${prefix}p"
    done
  done
}

bench_ratio() {
  awk -v h="$1" -v p="$2" 'BEGIN { if (h == "NaN" || p == "NaN" || p == 0) print "n/a"; else printf "%.2f", h / p }'
}
