#!/usr/bin/env bash
# Streaming replication, hearthd and PostgreSQL 15 side by side (each a
# primary started by lib.sh with the same settings, plus one standby made
# from it with PostgreSQL 15's pg_basebackup -R and started with the same
# settings):
#   - pg_basebackup -X stream -c fast of a pgbench database of SIZE_MB
#     (scale SIZE_MB / 15), seconds per backup;
#   - TPC-B (pgbench -c 16 -j 2 -T SECONDS) with synchronous_standby_names
#     = '*' and synchronous_commit off / on / remote_apply, tps;
#   - replication lag under the same load with synchronous_commit = local
#     (commits do not wait for the standby): the primary's
#     pg_stat_replication sampled every second, bytes not yet replayed
#     (pg_current_wal_lsn() - replay_lsn) and replay_lag in seconds, the
#     median of each run's samples.
# Printed: the median over RUNS runs of each figure and hearthd/PostgreSQL.
#   scripts/bench/replication.sh [RUNS] [SIZE_MB] [SECONDS]   (defaults 3, 1024, 30)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
size_mb="${2:-1024}"
secs="${3:-30}"
scale=$(( size_mb / 15 )); [ "$scale" -ge 1 ] || scale=1
work="$(mktemp -d /tmp/hearth-replication-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

settings=(-c shared_buffers=1GB -c max_wal_size=4GB -c checkpoint_timeout=30min -c wal_level=replica
          -c max_wal_senders=10)
as=""
[ "$(id -u)" -eq 0 ] && as="runuser -u postgres --"

# pg_basebackup -R of the primary on PORT into DIR (as the owner the server
# needs); prints the seconds it took.
backup_once() {  # KIND PORT DIR
  local kind="$1" port="$2" dir="$3" t0 t1 run=""
  rm -rf "$dir"
  if [ "$kind" = p ] && [ -n "$as" ]; then
    run="$as"
    mkdir -p "$dir" && chown postgres "$dir" && chmod 700 "$dir"
  fi
  t0=$(date +%s.%N)
  if ! $run "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$port" -U hearth -D "$dir" -X stream -c fast -R \
      >"$work/basebackup.log" 2>&1; then
    echo "  pg_basebackup failed on port $port: $(tail -c 300 "$work/basebackup.log")" >&2
    echo NaN
    return
  fi
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

start_standby() {  # KIND DIR PORT
  local kind="$1" dir="$2" port="$3" opts kv
  if [ "$kind" = h ]; then
    "$HEARTHD" -D "$dir" -c port="$port" -c listen_addresses=127.0.0.1 -c log_file=server.log "${settings[@]}" &
    BENCH_PIDS+=($!)
  else
    opts="-p $port -k /tmp -c listen_addresses=127.0.0.1"
    for kv in "${settings[@]}"; do [ "$kv" = "-c" ] || opts="$opts -c $kv"; done
    $as "$PGBIN/pg_ctl" -D "$dir" -o "$opts" -l "$dir/standby.log" -w start >/dev/null
    BENCH_PG_DIRS+=("$dir")
  fi
}

value() {  # PORT SQL
  psql -X -At -h 127.0.0.1 -p "$1" -U hearth -d hearth -c "$2" 2>/dev/null
}

# synchronous_standby_names = '*' on the running primary (set once the
# standby streams: before, every commit, CREATE DATABASE's too, would wait).
make_standby_synchronous() {  # KIND PORT DIR PID
  local kind="$1" port="$2" dir="$3" pid="$4"
  if [ "$kind" = h ]; then
    printf "\nsynchronous_standby_names = '*'\n" >>"$dir/hearth.conf"
    kill -HUP "$pid"
  else
    value "$port" "alter system set synchronous_standby_names = '*'" >/dev/null
    value "$port" "select pg_reload_conf()" >/dev/null
  fi
  for _ in $(seq 1 300); do
    [ "$(value "$port" "select sync_state from pg_stat_replication")" = sync ] && return 0
    sleep 0.1
  done
  echo "standby did not become synchronous (primary port $port)" >&2
  return 1
}

wait_streaming() {  # PRIMARY_PORT
  for _ in $(seq 1 600); do
    [ "$(value "$1" "select count(*) from pg_stat_replication where state = 'streaming'")" = 1 ] && return 0
    sleep 0.1
  done
  echo "standby did not start streaming (primary port $1)" >&2
  return 1
}

# One lag run: pgbench with synchronous_commit = local while sampling the
# primary; appends the medians of the samples to OUT.bytes / OUT.secs.
lag_run() {  # PORT OUT
  local port="$1" out="$2" pid bytes=() lags=() row b l
  PGOPTIONS="-c synchronous_commit=local" pgbench -n -h 127.0.0.1 -p "$port" -U hearth -c 16 -j 2 -T "$secs" hearth \
    >"$work/lag_pgbench.log" 2>&1 &
  pid=$!
  sleep 1
  while kill -0 "$pid" 2>/dev/null; do
    row=$(value "$port" "select pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), coalesce(extract(epoch from replay_lag), 0) from pg_stat_replication")
    IFS='|' read -r b l <<<"$row"
    [ -n "${b:-}" ] && bytes+=("$b") && lags+=("$l")
    sleep 1
  done
  wait "$pid"
  if [ ${#bytes[@]} -eq 0 ]; then echo NaN >>"$out.bytes"; echo NaN >>"$out.secs"; return; fi
  bench_median "${bytes[@]}" >>"$out.bytes"
  bench_median "${lags[@]}" >>"$out.secs"
}

measure() {  # KIND (h or p)
  local kind="$1" pport sport r mode ppid=""
  pport=$(bench_free_port); sport=$(bench_free_port)
  if [ "$kind" = h ]; then
    bench_start_hearthd "$work/h-primary" "$pport" "${settings[@]}"
    ppid="${BENCH_PIDS[-1]}"
  else
    bench_start_postgres "$work/p-primary" "$pport" "${settings[@]}"
  fi
  if ! pgbench -i -q -s "$scale" -h 127.0.0.1 -p "$pport" -U hearth hearth \
      >"$work/init.log" 2>&1; then
    echo "pgbench -i failed on port $pport: $(tail -c 400 "$work/init.log")" >&2
    exit 1
  fi
  value "$pport" "checkpoint" >/dev/null
  : >"$work/$kind.basebackup"
  for r in $(seq 1 "$runs"); do
    echo "$kind: base backup $r/$runs" >&2
    backup_once "$kind" "$pport" "$work/$kind-standby" >>"$work/$kind.basebackup"
  done
  start_standby "$kind" "$work/$kind-standby" "$sport"
  wait_streaming "$pport" || exit 1
  make_standby_synchronous "$kind" "$pport" "$work/$kind-primary" "$ppid" || exit 1
  for mode in off on remote_apply; do
    : >"$work/$kind.tps_$mode"
  done
  : >"$work/$kind.lag.bytes"; : >"$work/$kind.lag.secs"
  for r in $(seq 1 "$runs"); do
    for mode in off on remote_apply; do
      echo "$kind: run $r/$runs synchronous_commit=$mode" >&2
      PGOPTIONS="-c synchronous_commit=$mode" bench_pgbench "$pport" 16 "$work/pgbench.log" -T "$secs"
      echo "$BENCH_TPS" >>"$work/$kind.tps_$mode"
    done
    echo "$kind: run $r/$runs lag" >&2
    lag_run "$pport" "$work/$kind.lag"
  done
  bench_stop_all
}

measure h
measure p
cp "$work/h.lag.bytes" "$work/h.lag_bytes"; cp "$work/p.lag.bytes" "$work/p.lag_bytes"
cp "$work/h.lag.secs" "$work/h.lag_seconds"; cp "$work/p.lag.secs" "$work/p.lag_seconds"
echo "pgbench scale $scale (~${size_mb} MB), 16 clients, ${secs} s per run, medians of $runs runs"
bench_table hearthd postgresql "$work/h" "$work/p" basebackup tps_off tps_on tps_remote_apply lag_bytes lag_seconds
