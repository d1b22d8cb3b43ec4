#!/usr/bin/env bash
# Throughput across checkpoints: pgbench TPC-B with per-second progress
# (pgbench -P 1) against hearthd and PostgreSQL 15, both started by lib.sh
# with the same settings (shared_buffers=1GB, fsync=on, checkpoint_timeout=30s
# — the minimum — checkpoint_completion_target=0.9, max_wal_size=4GB so the
# checkpoints are the timed, spread ones). Each run of T seconds spans
# several checkpoints. Per run and server it records the per-second tps,
# skips the first WARMUP seconds, and reports the median second, the worst
# second and the worst dip (1 - worst / median) in percent, plus how many
# checkpoints completed during the run (pg_stat_bgwriter). The target is a
# worst dip of at most 20% (a "stall" is a second far below the median).
# Prints per server the median over runs of each figure.
#   scripts/bench/checkpoint.sh [RUNS] [SECONDS] [SCALE]   (defaults 3, 100, 10)
#   CLIENTS=16 WARMUP=5 HEARTHD=/path/to/hearthd scripts/bench/checkpoint.sh 1 40 1
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
secs="${2:-100}"
scale="${3:-10}"
clients="${CLIENTS:-16}"
warmup="${WARMUP:-5}"
work="$(mktemp -d /tmp/hearth-ckpt-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

bench_start_pgbench_pair "$work" "$scale" -c shared_buffers=1GB -c fsync=on -c synchronous_commit=on \
  -c max_connections=60 -c checkpoint_timeout=30s -c checkpoint_completion_target=0.9 -c max_wal_size=4GB \
  -c log_checkpoints=on
hport=$BENCH_HPORT; pport=$BENCH_PPORT

checkpoints() {  # PORT: checkpoints completed so far
  psql -X -qAt -h 127.0.0.1 -p "$1" -U hearth -d hearth \
    -c 'select checkpoints_timed + checkpoints_req from pg_stat_bgwriter'
}

# Per-second tps from pgbench's "progress: 12.0 s, 1234.5 tps, ..." lines
# (stderr, in the log), after the warm-up.
per_second_tps() {  # LOG
  awk -v w="$warmup" '/^progress: / {t = $2 + 0; v = $4 + 0; if (t > w) print v}' "$1"
}

run_point() {  # PORT N OUTPREFIX: appends median, worst, dip % and checkpoints
  local port="$1" n="$2" out="$3" c0 c1 med worst
  c0=$(checkpoints "$port")
  if ! bench_pgbench "$port" "$n" "$work/pgbench.log" -T "$secs" -P 1; then
    for f in med worst dip ckpt; do echo NaN >>"$out.$f"; done
    return
  fi
  c1=$(checkpoints "$port")
  per_second_tps "$work/pgbench.log" >"$work/seconds"
  med=$(bench_median $(cat "$work/seconds"))
  worst=$(sort -g "$work/seconds" | head -1)
  echo "$med" >>"$out.med"
  echo "${worst:-NaN}" >>"$out.worst"
  awk -v m="$med" -v w="${worst:-NaN}" 'BEGIN { if (m > 0 && w != "NaN") printf "%.1f\n", 100 * (1 - w / m); else print "NaN" }' >>"$out.dip"
  echo $((c1 - c0)) >>"$out.ckpt"
  echo "  port $port: per-second tps $(tr '\n' ' ' <"$work/seconds")" >&2
}

bench_all_points "$runs" "$clients" "$hport" "$pport" "$work/"

printf '%-8s %12s %12s %10s %12s\n' server median_tps worst_tps worst_dip% checkpoints
for s in h p; do
  name=hearthd; [ "$s" = p ] && name=pg15
  printf '%-8s %12.0f %12.0f %10s %12s\n' "$name" "$(bench_median $(cat "$work/$s.med"))" \
    "$(bench_median $(cat "$work/$s.worst"))" "$(bench_median $(cat "$work/$s.dip"))" \
    "$(bench_median $(cat "$work/$s.ckpt"))"
done
echo "worst dip by run: hearthd $(tr '\n' ' ' <"$work/h.dip")| pg15 $(tr '\n' ' ' <"$work/p.dip")"
echo "target: worst dip <= 20% during checkpoints"
echo "clients=$clients, scale=$scale, T=${secs}s (first ${warmup}s skipped), runs=$runs (medians)," \
     "machine=$(nproc) cores, $(date -u +%F)"
